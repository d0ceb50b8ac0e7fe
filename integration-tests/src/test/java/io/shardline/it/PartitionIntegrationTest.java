package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.it.ClusterProbe.Owner;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.net.TcpCutProxy;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A worker that does not lead, cut off from the other workers' Hazelcast and event-bus ports while Redis stays
 * reachable, with real worker JVMs from the distribution and the default timeouts. Every cluster port of every worker
 * is behind a {@link TcpCutProxy} (the workers advertise the proxies: {@code cluster.public.port},
 * {@code cluster.bus.public.port}); a partition black-holes every connection to the worker and every one it opened,
 * for two session timeouts (longer than {@code cluster.failure.timeout.ms}, so Hazelcast splits the view too):
 * <ul>
 *   <li>the cluster keeps its leader: no worker claims the leader epoch during the whole test;</li>
 *   <li>no shard owned by a member of another worker changes owner or owner epoch while the partition lasts;</li>
 *   <li>the cut-off worker's members fence themselves, and its shards are owned by the others within
 *       session timeout + one heartbeat interval of the cut;</li>
 *   <li>after the partition heals, the worker merges back and its members own shards again.</li>
 * </ul>
 * Tagged {@code integration}; about a minute and a half. Alone: {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=PartitionIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class PartitionIntegrationTest {

    private static final String STREAM = "orders";
    private static final int SHARDS = 12;
    /** The defaults of WorkerConfig (not overridden here). */
    private static final int SESSION_MS = 10_000;
    private static final int HEARTBEAT_MS = 1_000;
    private static final int FAILURE_TIMEOUT_MS = 15_000;
    private static final int MERGE_DELAY_MS = 5_000;
    private static final Duration JOIN = Duration.ofSeconds(150);

    private ItFleet fleet;
    private final List<TcpCutProxy> proxies = new ArrayList<>();

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
        proxies.forEach(TcpCutProxy::close);
    }

    @Test
    void aCutOffWorkerLosesItsShardsAloneAndComesBack(RedisServer redis) throws Exception {
        fleet = ItFleet.create("partition");
        fleet.listener(STREAM, "handler=logging-sink", "streams=" + STREAM + ":" + SHARDS, "group=" + STREAM,
                "concurrency=2", "assignor=cooperative-sticky", "start.from=earliest");
        // Per worker: Hazelcast port, its proxy, event-bus port, its proxy, REST port.
        List<Integer> ports = FreePorts.take(15);
        List<Integer> memberProxies = List.of(ports.get(1), ports.get(6), ports.get(11));
        Map<String, String> common = fleet.commonSettings(memberProxies);
        common.put("redis.url", redis.uri());
        List<WorkerProcess> workers = new ArrayList<>();
        List<List<TcpCutProxy>> proxiesOf = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int base = 5 * i;
            proxiesOf.add(List.of(proxy(ports.get(base + 1), ports.get(base)), proxy(ports.get(base + 3),
                    ports.get(base + 2))));
            Map<String, String> s = ItFleet.withPorts(common, ports.get(base), ports.get(base + 4));
            s.put("cluster.public.port", Integer.toString(ports.get(base + 1)));
            s.put("cluster.bus.port", Integer.toString(ports.get(base + 2)));
            s.put("cluster.bus.public.port", Integer.toString(ports.get(base + 3)));
            workers.add(fleet.start("w" + i, s));
            workers.get(i).await("joined cluster", JOIN);
        }
        ClusterProbe probe = new ClusterProbe(redis);
        probe.awaitOwners(STREAM, SHARDS, o -> count(o, "w0") == 4 && count(o, "w1") == 4 && count(o, "w2") == 4,
                Duration.ofSeconds(90), "balanced assignment 4/4/4");
        WorkerProcess target = workers.get(2); // w0, the oldest, leads
        List<Integer> claimsAtStart = workers.stream().map(w -> claims(w).size()).toList();

        // Two sessions: longer than the self-fence, the session and Hazelcast's failure timeout.
        Map<Integer, Owner> before = probe.owners(STREAM, SHARDS);
        int fencesBefore = fences(target);
        long cutAt = System.nanoTime();
        cut(target, workers, proxiesOf);
        long ownedAgainMs = sampleOthers(probe, before, target, 2L * SESSION_MS, "partition of 2 x session");
        assertThat(ownedAgainMs).as("the cut-off worker's shards were owned by the others during the partition")
                .isPositive();
        System.out.println("FIGURE partition_shards_owned_again_ms=" + ownedAgainMs + " (session " + SESSION_MS + ")");
        TimingTargets.assertTarget("the cut-off worker's shards owned by others within session.timeout.ms + "
                + "heartbeat.interval.ms", ownedAgainMs, SESSION_MS + HEARTBEAT_MS);
        assertThat(fences(target)).as("the cut-off worker's members fenced themselves").isGreaterThan(fencesBefore);
        healAll();
        long healedAt = System.nanoTime();
        // Liveness bound: Hazelcast's merge runs every cluster.merge.delay.ms; then a join per member, a revocation
        // by the members that took the shards, and a heartbeat each way.
        Duration rejoin = Duration.ofMillis(2L * MERGE_DELAY_MS + FAILURE_TIMEOUT_MS + 3L * SESSION_MS);
        probe.awaitOwners(STREAM, SHARDS, o -> o.size() == SHARDS && count(o, target.workerId) > 0, rejoin,
                "the healed worker's members own shards again (cluster.merge.delay.ms x 2 + "
                        + "cluster.failure.timeout.ms + 3 x session.timeout.ms)");
        System.out.println("FIGURE partition_rejoined_ms=" + (System.nanoTime() - healedAt) / 1_000_000
                + " (cut for " + (healedAt - cutAt) / 1_000_000 + " ms)");

        for (int i = 0; i < workers.size(); i++) {
            assertThat(claims(workers.get(i))).as("no leader change on %s (the cluster keeps its leader)",
                    workers.get(i).workerId).hasSize(claimsAtStart.get(i));
        }
        for (WorkerProcess w : workers) {
            if (w != target) {
                assertThat(w.lines().stream().filter(l -> l.contains("fencing itself")).toList())
                        .as("no member on %s fences itself", w.workerId).isEmpty();
            }
        }
    }

    private TcpCutProxy proxy(int port, int target) {
        TcpCutProxy p = TcpCutProxy.start(port, target);
        proxies.add(p);
        return p;
    }

    /** Cuts {@code target} off: its own proxies, and the connections it opened through the others'. */
    private static void cut(WorkerProcess target, List<WorkerProcess> workers, List<List<TcpCutProxy>> proxiesOf) {
        for (int i = 0; i < workers.size(); i++) {
            for (TcpCutProxy p : proxiesOf.get(i)) {
                if (workers.get(i) == target) {
                    p.cut();
                } else {
                    p.cutFrom(target.process.pid());
                }
            }
        }
    }

    private void healAll() {
        proxies.forEach(TcpCutProxy::heal);
    }

    /**
     * Samples the owners every 50 ms for {@code ms}: fails when a shard another worker's member owned changes owner or
     * epoch; returns how long after the start no shard was owned by the target any more (-1: not within {@code ms}).
     */
    private static long sampleOthers(ClusterProbe probe, Map<Integer, Owner> before, WorkerProcess target, long ms,
                                     String what) {
        long start = System.nanoTime();
        long ownedAgainMs = -1;
        while (System.nanoTime() - start < ms * 1_000_000) {
            Map<Integer, Owner> now = probe.owners(STREAM, SHARDS);
            before.forEach((shard, owner) -> {
                if (!ClusterProbe.workerOf(owner).equals(target.workerId)) {
                    assertThat(now.get(shard)).as("%s: orders:%s kept its owner and owner epoch", what, shard)
                            .isEqualTo(owner);
                }
            });
            if (ownedAgainMs < 0 && now.size() == SHARDS && count(now, target.workerId) == 0) {
                ownedAgainMs = (System.nanoTime() - start) / 1_000_000;
            }
            WorkerProcess.pause(50);
        }
        return ownedAgainMs;
    }

    private static List<String> claims(WorkerProcess w) {
        return w.lines().stream().filter(l -> l.contains("-> LEADER")).toList();
    }

    private static int fences(WorkerProcess w) {
        return (int) w.lines().stream().filter(l -> l.contains("fencing itself")).count();
    }

    private static long count(Map<Integer, Owner> owners, String worker) {
        return owners.values().stream().filter(o -> ClusterProbe.workerOf(o).equals(worker)).count();
    }
}
