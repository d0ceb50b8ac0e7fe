package io.shardline.benchmarks.coordinator;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.CoordinatorResult;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.group.Group;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.TreeSet;

/**
 * The rebalance part of the cost curve (docs/benchmarks.md, "Cost curve"): the time from a member joining a stable
 * group to a stable group again, against members and shards, and the coordinator's CPU per heartbeat. The coordinator
 * is driven directly, as the host drives it, on a simulated clock: a stable group of {@code members} members (built
 * from its records, {@link StableGroups}) heartbeats every interval (3 s, the members spread over it), a new member
 * joins, and every member does what a member does (owns what it is assigned, reports a revoked shard at once, as
 * {@code Membership} does when a drain ends: drains take no time here, so the figure is the protocol's part of a
 * rebalance). Stable: every member {@code STABLE} with its target assigned. Reported: the simulated time to stable in
 * heartbeat intervals (the target: at most 2 plus the drain), the heartbeats it took, and the calling thread's CPU time
 * per heartbeat during the rebalance and in the stable group before it (CPU time holds on a busy machine).
 *
 * <p>Run: {@code java -Xmx3g -cp benchmarks/target/benchmarks.jar
 * io.shardline.benchmarks.coordinator.RebalanceCurve [ASSIGNOR=range] [MEMBERS=4,16,64,256]
 * [SHARDS=16,1000,10000,100000]}
 */
public final class RebalanceCurve {

    private static final int INTERVAL_MS = 3_000;
    private static final String JOINER = "member-new";

    /** One simulated member: what it owns, its epochs and the revocations it still has to report. */
    private static final class SimMember {
        final String id;
        int memberEpoch;
        int assignmentEpoch;
        TreeSet<ShardId> owned = new TreeSet<>();
        final List<RevokeReport> revoked = new ArrayList<>();

        SimMember(String id, int memberEpoch, int assignmentEpoch, TreeSet<ShardId> owned) {
            this.id = id;
            this.memberEpoch = memberEpoch;
            this.assignmentEpoch = assignmentEpoch;
            this.owned = owned;
        }

        HeartbeatRequest request() {
            List<RevokeReport> reports = List.copyOf(revoked);
            revoked.clear();
            return new HeartbeatRequest(StableGroups.GROUP, id, memberEpoch, Optional.empty(), Optional.empty(),
                    new TreeSet<>(List.of(StableGroups.STREAM)), new TreeSet<>(owned), reports, assignmentEpoch, 1);
        }

        /** Applies an answer; returns whether a revocation is to be reported at once. */
        boolean answered(HeartbeatResponse r) {
            if (r.error() != ErrorCode.NONE) {
                throw new IllegalStateException(id + ": " + r.error() + " " + r.errorMessage());
            }
            memberEpoch = r.memberEpoch();
            assignmentEpoch = r.assignmentEpoch();
            TreeSet<ShardId> next = new TreeSet<>(r.assigned().keySet());
            for (ShardId s : owned) {
                if (!next.contains(s)) {
                    revoked.add(new RevokeReport(s, RevokeState.REVOKED));
                }
            }
            owned = next;
            return !revoked.isEmpty();
        }
    }

    /** A heartbeat due at {@code atMs}. */
    private record Due(long atMs, int member) {
    }

    private RebalanceCurve() {
    }

    public static void main(String[] args) {
        String assignor = args.length > 0 ? args[0] : "range";
        int[] memberCounts = parse(args.length > 1 ? args[1] : "4,16,64,256");
        int[] shardCounts = parse(args.length > 2 ? args[2] : "16,1000,10000,100000");
        System.out.printf("assignor %s, heartbeat interval %d ms, load average %.2f%n", assignor, INTERVAL_MS,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.out.println("| members | shards | join to stable (heartbeat intervals) | heartbeats | shards moved "
                + "| coordinator CPU per heartbeat: stable / rebalance (µs) | CPU of the whole rebalance (ms) |");
        System.out.println("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (int members : memberCounts) {
            for (int shards : shardCounts) {
                run(assignor, members, shards);
            }
        }
    }

    private static void run(String assignor, int memberCount, int shards) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        GroupCoordinator c = StableGroups.coordinator(StableGroups.records(memberCount, shards, assignor));
        Group group = c.group(StableGroups.GROUP).orElseThrow();
        List<SimMember> sims = new ArrayList<>();
        for (Member m : group.members().values()) {
            sims.add(new SimMember(m.memberId(), m.memberEpoch(), group.assignmentEpoch(),
                    new TreeSet<>(m.assigned().keySet())));
        }
        PriorityQueue<Due> queue = new PriorityQueue<>((a, b) -> Long.compare(a.atMs(), b.atMs()));
        for (int i = 0; i < sims.size(); i++) {
            queue.add(new Due((long) i * INTERVAL_MS / sims.size(), i));
        }
        // Two stable intervals first: warms the code up and gives the stable cost per heartbeat.
        long now = 0;
        int stableBeats = 0;
        long stableCpu = 0;
        while (queue.peek().atMs() < 2L * INTERVAL_MS) {
            Due d = queue.poll();
            now = d.atMs();
            long t0 = mx.getCurrentThreadCpuTime();
            sims.get(d.member()).answered(c.heartbeat(now, sims.get(d.member()).request()).response());
            stableCpu += mx.getCurrentThreadCpuTime() - t0;
            stableBeats++;
            queue.add(new Due(now + INTERVAL_MS, d.member()));
        }
        long joinAt = 2L * INTERVAL_MS;
        sims.add(new SimMember(JOINER, 0, 0, new TreeSet<>()));
        queue.add(new Due(joinAt, sims.size() - 1));
        int beats = 0;
        long cpu = 0;
        long moved = 0;
        long nextTick = joinAt;
        while (true) {
            Due d = queue.poll();
            now = d.atMs();
            long t0 = mx.getCurrentThreadCpuTime();
            if (now >= nextTick) {
                c.tick(now);
                nextTick += INTERVAL_MS / 2;
            }
            SimMember sim = sims.get(d.member());
            CoordinatorResult<HeartbeatResponse> r = c.heartbeat(now, sim.request());
            boolean revoking = sim.answered(r.response());
            cpu += mx.getCurrentThreadCpuTime() - t0;
            beats++;
            moved += sim.revoked.size();
            // A drained shard is reported at once (Membership makes the heartbeat due), else one interval later.
            queue.add(new Due(revoking ? now + 1 : now + INTERVAL_MS, d.member()));
            if (stable(group)) {
                break;
            }
            if (now - joinAt > 100L * INTERVAL_MS) {
                throw new IllegalStateException("not stable after 100 intervals");
            }
        }
        System.out.printf(Locale.ROOT, "| %d | %d | %.2f | %d | %d | %.1f / %.1f | %.1f |%n", memberCount, shards,
                (now - joinAt) / (double) INTERVAL_MS, beats, moved, stableCpu / 1e3 / stableBeats, cpu / 1e3 / beats,
                cpu / 1e6);
    }

    /** Every member stable, owning exactly its target. */
    private static boolean stable(Group group) {
        for (Member m : group.members().values()) {
            if (m.state() != MemberState.STABLE || !m.revoking().isEmpty()
                    || !m.assigned().keySet().equals(group.target(m.memberId()))) {
                return false;
            }
        }
        return group.member(JOINER) != null;
    }

    private static int[] parse(String csv) {
        return java.util.Arrays.stream(csv.split(",")).mapToInt(Integer::parseInt).toArray();
    }
}
