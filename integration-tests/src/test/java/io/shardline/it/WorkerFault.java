package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.it.ClusterProbe.Owner;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One fault of a multi-process test (a freeze, a kill, a partition) and its checks: what the other workers owned
 * before it (their shards must keep owner and owner epoch while the target is down), their log positions (none of
 * their members may fence itself; at most {@code leaderChanges} claims of the leader epoch, none after the target is
 * back), and how long until no shard is owned by the target (printed as a FIGURE, bounded by
 * {@code ownedAgainBoundMs} through {@link TimingTargets}). Used by one test thread.
 */
final class WorkerFault {

    private final String stream;
    private final int shards;
    private final long sessionMs;
    private final long ownedAgainBoundMs;
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

    WorkerFault(String what, WorkerProcess target, List<WorkerProcess> workers, ClusterProbe probe, int leaderChanges,
                String stream, int shards, long sessionMs, long ownedAgainBoundMs) {
        this.stream = stream;
        this.shards = shards;
        this.sessionMs = sessionMs;
        this.ownedAgainBoundMs = ownedAgainBoundMs;
        this.what = what;
        this.leaderChanges = leaderChanges;
        this.target = target;
        this.workers = workers.stream().filter(w -> w.process.isAlive()).toList();
        this.probe = probe;
        this.before = probe.awaitOwners(stream, shards, o -> true, Duration.ofSeconds(30), "owners");
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
            boolean owned = now.size() == shards && (target.process.isAlive()
                    || now.values().stream().noneMatch(this::ownedByTarget));
            settled = owned && System.nanoTime() - quietSince > sessionMs * 1_000_000L;
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
                    + " (session " + sessionMs + ")");
            TimingTargets.assertTarget(what + ": the target's shards owned again within session.timeout.ms + "
                    + "heartbeat.interval.ms", ownedAgainMs, ownedAgainBoundMs);
        } else {
            assertThat(resumedAt).as("%s: the target's shards were never owned by the others", what).isNotNull();
        }
    }

    /**
     * Reads the owners; fails when a shard a member of another worker owned before the fault changed owner or
     * epoch. Notes when, with the target down, every shard is first owned by a member of another worker.
     */
    private Map<Integer, Owner> sample() {
        Map<Integer, Owner> now = probe.owners(stream, shards);
        boolean targetDown = resumedAt == null || !target.process.isAlive();
        before.forEach((shard, owner) -> {
            if (targetDown && !ownedByTarget(owner)) {
                assertThat(now.get(shard)).as("%s: orders:%s, owned by another worker than %s before the fault, "
                        + "kept its owner and owner epoch", what, shard, target.workerId).isEqualTo(owner);
            }
        });
        if (ownedAgainMs < 0 && targetDown && now.size() == shards
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
