package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.it.ClusterProbe.Owner;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import java.io.IOException;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster and the faults of {@link FrozenWorkerIntegrationTest} and {@link FrozenLeaderIntegrationTest}: three
 * real worker JVMs from the distribution with the DEFAULT timeouts ({@code session.timeout.ms} 10 s,
 * {@code heartbeat.interval.ms} 1 s, {@code cluster.failure.timeout.ms} 15 s) sharing 12 shards, and one fault's
 * checks:
 * <ul>
 *   <li>no member on another worker fences itself, and every shard such a member owned before the fault keeps the
 *       same owner and owner epoch while the target is down (sampled every 50 ms), so none of its records is handled
 *       twice (once a frozen worker is back, its members rejoin and the assignor may move shards to them, each
 *       revoked by its owner first);</li>
 *   <li>a frozen non-leader changes no leadership (the leader epoch the cluster had stays); for the leader, at most
 *       one worker claims the leader epoch (the successor), and the worker that was frozen claims none after it
 *       resumed;</li>
 *   <li>within session timeout + one heartbeat interval (11 s) of the fault, no shard is owned by a member of a
 *       worker that is still frozen or dead (the target's shards are owned again).</li>
 * </ul>
 * The ownership and leadership assertions always fail; the timing bound (derived from the configured timeouts) is
 * reported instead of failed on a machine whose load average is above twice its cores ({@link TimingTargets}).
 */
final class FrozenFaults {

    static final String STREAM = "orders";
    static final int SHARDS = 12;
    /** The defaults of session.timeout.ms and heartbeat.interval.ms (WorkerConfig): not overridden here. */
    static final int SESSION_MS = 10_000;
    private static final int HEARTBEAT_MS = 1_000;
    /**
     * The target: the session timeout (a silent member's lease, counted from its last heartbeat, which is before the
     * fault) plus one heartbeat interval (the new owners' heartbeats are called back for the deadline; the interval
     * covers the commits and the sampling).
     */
    private static final long OWNED_AGAIN_BOUND_MS = SESSION_MS + HEARTBEAT_MS;
    private static final Duration JOIN = Duration.ofSeconds(150);

    final List<WorkerProcess> workers = new ArrayList<>();
    final ClusterProbe probe;

    private FrozenFaults(ClusterProbe probe) {
        this.probe = probe;
    }

    /** Starts three workers in {@code fleet} on {@code redis} and waits for the balanced assignment 4/4/4. */
    static FrozenFaults start(ItFleet fleet, RedisServer redis) throws IOException {
        List<Integer> ports = FreePorts.take(6);
        fleet.listener(STREAM, "handler=logging-sink", "streams=" + STREAM + ":" + SHARDS, "group=" + STREAM,
                "concurrency=2", "assignor=cooperative-sticky", "start.from=earliest");
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 3));
        common.put("redis.url", redis.uri());
        FrozenFaults cluster = new FrozenFaults(new ClusterProbe(redis));
        for (int i = 0; i < 3; i++) {
            cluster.workers.add(fleet.start("w" + i, ItFleet.withPorts(common, ports.get(i), ports.get(3 + i))));
            cluster.workers.get(i).await("joined cluster", JOIN);
        }
        cluster.probe.awaitOwners(STREAM, SHARDS, o -> countBy(o, "w0") == 4 && countBy(o, "w1") == 4
                && countBy(o, "w2") == 4, Duration.ofSeconds(90), "balanced assignment 4/4/4");
        return cluster;
    }

    /**
     * Freezes ({@code SIGSTOP}) the leader or a worker that does not lead for 0.5, 1 and 2 session timeouts, each
     * resumed ({@code SIGCONT}) after it, and checks each fault. The oldest worker leads; after a freeze it may stay
     * leader (not detected) or the next oldest takes over.
     */
    void freezeThreeTimes(boolean ofLeader) {
        for (double factor : new double[] {0.5, 1.0, 2.0}) {
            WorkerProcess leader = currentLeader(workers);
            WorkerProcess target = ofLeader ? leader : workers.stream().filter(w -> w != leader).reduce(
                    (a, b) -> b).orElseThrow();
            String what = "SIGSTOP of " + (ofLeader ? "leader " : "non-leader ") + target.workerId + " for "
                    + factor + " x session";
            Fault fault = new Fault(what, target, workers, probe, ofLeader ? 1 : 0);
            fault.begin();
            target.pause();
            fault.sampleFor((long) (factor * SESSION_MS)); // the fault lasts this long; sampling meanwhile
            fault.resumed();
            target.resume();
            fault.settleAndCheck();
        }
    }

    /** Kills the leader ({@code kill -9}) and checks the fault. */
    void killLeader() {
        WorkerProcess leader = currentLeader(workers);
        Fault kill = new Fault("kill -9 of leader " + leader.workerId, leader, workers, probe, 1);
        kill.begin();
        leader.kill();
        kill.settleAndCheck();
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

    /** One fault: what the other workers owned before it, their log positions, and the checks after it. */
    private static final class Fault {
        private final String what;
        private final WorkerProcess target;
        private final List<WorkerProcess> workers;
        private final ClusterProbe probe;
        /** How many workers may claim the leader epoch because of this fault. */
        private final int leaderChanges;
        private final Map<Integer, Owner> before;
        private final Map<WorkerProcess, Integer> logMark = new HashMap<>();
        private long startedNanos;
        private LocalTime resumedAt;
        private long ownedAgainMs = -1;

        Fault(String what, WorkerProcess target, List<WorkerProcess> workers, ClusterProbe probe, int leaderChanges) {
            this.what = what;
            this.leaderChanges = leaderChanges;
            this.target = target;
            this.workers = workers.stream().filter(w -> w.process.isAlive()).toList();
            this.probe = probe;
            this.before = probe.awaitOwners(STREAM, SHARDS, o -> true, Duration.ofSeconds(30), "owners");
            this.workers.forEach(w -> logMark.put(w, w.lines().size()));
        }

        /** The fault is injected now: its times count from here. */
        void begin() {
            startedNanos = System.nanoTime();
        }

        /** Samples the owners every 50 ms for {@code ms} (the target is down meanwhile). */
        void sampleFor(long ms) {
            long end = System.nanoTime() + ms * 1_000_000;
            while (System.nanoTime() < end) {
                sample();
                WorkerProcess.pause(50);
            }
        }

        /** The target runs again from now on. */
        void resumed() {
            sample();
            resumedAt = LocalTime.now();
        }

        /**
         * Samples the owners every 50 ms until every shard is owned (by a running worker's member, when the target
         * is dead) and no owner changed for a session timeout (a late fence, claim or move would show within it),
         * then checks the fault's targets.
         */
        void settleAndCheck() {
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            Map<Integer, Owner> last = Map.of();
            long quietSince = System.nanoTime();
            boolean settled = false;
            while (!settled && System.nanoTime() < deadline) {
                Map<Integer, Owner> now = sample();
                if (!now.equals(last)) {
                    quietSince = System.nanoTime();
                    last = now;
                }
                boolean owned = now.size() == SHARDS && (target.process.isAlive()
                        || now.values().stream().noneMatch(this::ownedByTarget));
                settled = owned && System.nanoTime() - quietSince > SESSION_MS * 1_000_000L;
                WorkerProcess.pause(50);
            }
            assertThat(settled).as("%s: every shard owned by a running worker's member, then no owner change for "
                    + "session.timeout.ms, within 120 s; owners %s", what, last).isTrue();
            for (WorkerProcess w : workers) {
                if (w != target) {
                    assertThat(linesSinceMark(w).stream().filter(l -> l.contains("fencing itself")).toList())
                            .as("%s: no member on %s fences itself", what, w.workerId).isEmpty();
                }
            }
            List<String> claims = new ArrayList<>();
            for (WorkerProcess w : workers) {
                linesSinceMark(w).stream().filter(l -> l.contains("-> LEADER")).forEach(claims::add);
            }
            assertThat(claims).as("%s: at most %d leader change(s)", what, leaderChanges)
                    .hasSizeLessThanOrEqualTo(leaderChanges);
            if (resumedAt != null) {
                List<String> afterResume = new ArrayList<>();
                for (WorkerProcess w : workers) {
                    linesSinceMark(w).stream().filter(l -> l.contains("-> LEADER")
                            && !LocalTime.parse(l.substring(0, 12)).isBefore(resumedAt)).forEach(afterResume::add);
                }
                assertThat(afterResume).as("%s: no leader change after SIGCONT", what).isEmpty();
            }
            if (ownedAgainMs >= 0) {
                System.out.println("FIGURE " + what.replace(' ', '_') + "_shards_owned_again_ms=" + ownedAgainMs
                        + " (session " + SESSION_MS + ")");
                TimingTargets.assertTarget(what + ": the target's shards owned again within session.timeout.ms + "
                        + "heartbeat.interval.ms", ownedAgainMs, OWNED_AGAIN_BOUND_MS);
            } else {
                assertThat(resumedAt).as("%s: the target's shards were never owned by the others", what).isNotNull();
            }
        }

        /**
         * Reads the owners; fails when a shard a member of another worker owned before the fault changed owner or
         * epoch. Notes when, with the target down, every shard is first owned by a member of another worker.
         */
        private Map<Integer, Owner> sample() {
            Map<Integer, Owner> now = probe.owners(STREAM, SHARDS);
            boolean targetDown = resumedAt == null || !target.process.isAlive();
            before.forEach((shard, owner) -> {
                if (targetDown && !ownedByTarget(owner)) {
                    assertThat(now.get(shard)).as("%s: orders:%s, owned by another worker than %s before the fault, "
                            + "kept its owner and owner epoch", what, shard, target.workerId).isEqualTo(owner);
                }
            });
            if (ownedAgainMs < 0 && targetDown && now.size() == SHARDS
                    && now.values().stream().noneMatch(this::ownedByTarget)) {
                ownedAgainMs = (System.nanoTime() - startedNanos) / 1_000_000;
            }
            return now;
        }

        private boolean ownedByTarget(Owner owner) {
            return ClusterProbe.workerOf(owner).equals(target.workerId);
        }

        private List<String> linesSinceMark(WorkerProcess w) {
            List<String> all = w.lines();
            return all.subList(Math.min(logMark.getOrDefault(w, 0), all.size()), all.size());
        }
    }
}
