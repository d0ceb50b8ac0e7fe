package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.it.ClusterProbe.Owner;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A frozen or killed worker, leader or not, costs the other workers nothing: real worker JVMs from the distribution
 * with the DEFAULT timeouts ({@code session.timeout.ms} 10 s, {@code heartbeat.interval.ms} 1 s,
 * {@code cluster.failure.timeout.ms} 15 s), one cluster for every fault. A worker that does not lead is frozen
 * ({@code SIGSTOP}) for 0.5, 1 and 2 session timeouts, then the leader for the same times, each resumed
 * ({@code SIGCONT}) after it; between the two, the same non-leader is cut off from the other workers' Hazelcast and
 * event-bus ports for 2 session timeouts, Redis still reachable (every cluster port is behind a test-kit proxy:
 * {@link ProxiedFleet}), then healed; finally the leader is killed ({@code kill -9}). After each fault:
 * <ul>
 *   <li>no member on another worker fences itself, and every shard such a member owned before the fault keeps the
 *       same owner and owner epoch while the target is down (sampled every 50 ms), so none of its records is handled
 *       twice (once a frozen worker is back, its members rejoin and the assignor may move shards to them, each
 *       revoked by its owner first);</li>
 *   <li>a frozen non-leader changes no leadership (the leader epoch the cluster had stays); for the leader, at most
 *       one worker claims the leader epoch (the successor), and the worker that was frozen claims none after it
 *       resumed;</li>
 *   <li>within session timeout + one heartbeat interval (11 s) of the fault, no shard is owned by a member of a
 *       worker that is still frozen, cut off or dead (the target's shards are owned again);</li>
 *   <li>the cut-off worker's members fence themselves, and after the partition heals it merges back into the
 *       cluster and owns shards again.</li>
 * </ul>
 * The ownership and leadership assertions always fail; the timing bound (derived from the configured timeouts) is
 * reported instead of failed on a machine whose load average is above twice its cores ({@link TimingTargets}).
 * Tagged {@code integration}; about three and a half minutes. Alone: {@code mvn -B -ntp verify -pl integration-tests
 * -am -Dtest=FrozenWorkerIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class FrozenWorkerIntegrationTest {

    private static final String STREAM = "orders";
    private static final int SHARDS = 12;
    /** The defaults of session.timeout.ms and heartbeat.interval.ms (WorkerConfig): not overridden here. */
    private static final int SESSION_MS = 10_000;
    private static final int HEARTBEAT_MS = 1_000;
    /**
     * The target: the session timeout (a silent member's lease, counted from its last heartbeat, which is before the
     * fault) plus one heartbeat interval (the new owners' heartbeats are called back for the deadline; the interval
     * covers the commits and the sampling).
     */
    private static final long OWNED_AGAIN_BOUND_MS = SESSION_MS + HEARTBEAT_MS;
    private static final Duration JOIN = Duration.ofSeconds(150);

    private ItFleet fleet;
    private ProxiedFleet proxied;

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
        if (proxied != null) {
            proxied.close();
        }
    }

    @Test
    void aFrozenKilledOrCutOffWorkerCostsOtherWorkersNothing(RedisServer redis) throws Exception {
        fleet = ItFleet.create("frozen");
        fleet.listener(STREAM, "handler=logging-sink", "streams=" + STREAM + ":" + SHARDS, "group=" + STREAM,
                "concurrency=2", "assignor=cooperative-sticky", "start.from=earliest");
        proxied = ProxiedFleet.start(fleet, 3, Map.of("redis.url", redis.uri()), JOIN);
        List<WorkerProcess> workers = proxied.workers();
        ClusterProbe probe = new ClusterProbe(redis);
        probe.awaitOwners(STREAM, SHARDS, o -> countBy(o, "w0") == 4 && countBy(o, "w1") == 4
                && countBy(o, "w2") == 4, Duration.ofSeconds(90), "balanced assignment 4/4/4");

        // The oldest worker leads; after a freeze it may stay leader (not detected) or the next oldest takes over.
        for (boolean ofLeader : new boolean[] {false, true}) {
            for (double factor : new double[] {0.5, 1.0, 2.0}) {
                WorkerProcess target = ofLeader ? currentLeader(workers) : nonLeader(workers);
                String what = "SIGSTOP of " + (ofLeader ? "leader " : "non-leader ") + target.workerId + " for "
                        + factor + " x session";
                WorkerFault fault = fault(what, target, workers, probe, ofLeader ? 1 : 0);
                fault.begin();
                target.pause();
                fault.sampleFor((long) (factor * SESSION_MS)); // the fault lasts this long; sampling meanwhile
                fault.resumed();
                target.resume();
                fault.settleAndCheck();
            }
            if (!ofLeader) {
                partitionOfANonLeader(workers, probe);
            }
        }

        WorkerProcess leader = currentLeader(workers);
        WorkerFault kill = fault("kill -9 of leader " + leader.workerId, leader, workers, probe, 1);
        kill.begin();
        leader.kill();
        kill.settleAndCheck();
    }

    /**
     * A worker that does not lead, cut off from the others' cluster ports for two session timeouts (longer than
     * cluster.failure.timeout.ms: Hazelcast splits the view too), Redis still reachable: its members fence themselves,
     * only its shards move, the leader stays, and once healed it merges back and owns shards again.
     */
    private void partitionOfANonLeader(List<WorkerProcess> workers, ClusterProbe probe) {
        WorkerProcess target = nonLeader(workers);
        long fencesBefore = target.lines().stream().filter(l -> l.contains("fencing itself")).count();
        WorkerFault cut = fault("partition of non-leader " + target.workerId + " for 2.0 x session", target, workers,
                probe, 0);
        cut.begin();
        proxied.partition(target);
        cut.sampleFor(2L * SESSION_MS);
        assertThat(target.lines().stream().filter(l -> l.contains("fencing itself")).count())
                .as("the cut-off worker's members fenced themselves").isGreaterThan(fencesBefore);
        cut.resumed();
        proxied.heal();
        cut.settleAndCheck();
        assertThat(countBy(probe.owners(STREAM, SHARDS), target.workerId))
                .as("%s owns shards again after the partition healed", target.workerId).isPositive();
    }

    private static WorkerFault fault(String what, WorkerProcess target, List<WorkerProcess> workers, ClusterProbe probe,
                                     int leaderChanges) {
        return new WorkerFault(what, target, workers, probe, leaderChanges, STREAM, SHARDS, SESSION_MS,
                OWNED_AGAIN_BOUND_MS);
    }

    /** The youngest worker that does not lead. */
    private static WorkerProcess nonLeader(List<WorkerProcess> workers) {
        WorkerProcess leader = currentLeader(workers);
        return workers.stream().filter(w -> w != leader).reduce((a, b) -> b).orElseThrow();
    }

    /** The worker whose last leadership line says it leads, among those still running. */
    private static WorkerProcess currentLeader(List<WorkerProcess> workers) {
        WorkerProcess leader = null;
        LocalTime latest = LocalTime.MIN;
        for (WorkerProcess w : workers) {
            if (!w.process.isAlive()) {
                continue;
            }
            LocalTime last = null;
            boolean leads = false;
            for (String l : w.lines()) {
                if (l.contains("Coordinator on " + w.workerId + ": ") && l.contains(" -> ")) {
                    leads = l.contains("-> LEADER");
                    last = LocalTime.parse(l.substring(0, 12));
                }
            }
            if (leads && last.isAfter(latest)) {
                latest = last;
                leader = w;
            }
        }
        assertThat(leader).as("a running worker leads").isNotNull();
        return leader;
    }

    private static long countBy(Map<Integer, Owner> owners, String worker) {
        return owners.values().stream().filter(o -> ClusterProbe.workerOf(o).equals(worker)).count();
    }
}
