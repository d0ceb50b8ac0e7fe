package io.shardline.benchmarks.coordinator;

import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.member.Membership;
import io.shardline.coordinator.member.MembershipConfig;
import io.shardline.coordinator.member.SentHeartbeat;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.runtime.coordinator.CoordinatorWire;
import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The CPU of one steady heartbeat of a member that owns N idle shards, end to end except the network: the member
 * builds its request ({@link Membership}), it is encoded to the event bus's JSON and decoded on the leader
 * ({@link CoordinatorWire}), the coordinator decides, the answer is encoded, decoded and applied. Both ways in one
 * run, A/B: the <b>full</b> heartbeat (the owned shards listed, the whole assignment answered: every heartbeat before
 * the deltas, and a resync now) against the <b>delta</b> (docs/protocol.md section 2). CPU time of the calling
 * thread, so the figure holds on a busy machine (docs/benchmarks.md, "Cost curve").
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar io.shardline.benchmarks.coordinator.SteadyHeartbeatCost
 * [SHARDS=16,256,4096,100000]}
 */
public final class SteadyHeartbeatCost {

    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    private SteadyHeartbeatCost() {
    }

    public static void main(String[] args) {
        int[] sizes = Arrays.stream((args.length > 0 ? args[0] : "16,256,4096,100000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        System.out.println("| owned shards | full heartbeat (µs CPU) | delta heartbeat (µs CPU) | full / delta |");
        System.out.println("| ---: | ---: | ---: | ---: |");
        for (int shards : sizes) {
            double full = microsPerHeartbeat(shards, false);
            double delta = microsPerHeartbeat(shards, true);
            System.out.printf(Locale.ROOT, "| %,d | %,.1f | %,.1f | %.0f |%n", shards, full, delta, full / delta);
            System.out.printf(Locale.ROOT, "FIGURE steady-heartbeat-us shards=%d full=%.1f delta=%.1f%n", shards,
                    full, delta);
        }
    }

    /** The CPU of one steady heartbeat, averaged over enough rounds for about a second, after a warm-up. */
    private static double microsPerHeartbeat(int shards, boolean delta) {
        GroupCoordinator coordinator = StableGroups.coordinator(StableGroups.records(1, shards, "range"));
        HeartbeatRequest steady = StableGroups.steadyRequests(coordinator)[0];
        Membership member = new Membership(new MembershipConfig(StableGroups.GROUP, steady.memberId(),
                Optional.empty(), Optional.empty(), new TreeSet<>(List.of(StableGroups.STREAM)), 3_000, 6_000));
        long now = 0;
        // The member joins with its epoch: the coordinator already knows it, so the first request is a full one.
        HeartbeatResponse first = coordinator.heartbeat(now, steady).response();
        SentHeartbeat join = member.heartbeat(now);
        member.onResponse(now, join.requestId(), first);
        int rounds = Math.max(20, 2_000_000 / Math.max(1, shards));
        long cpu = 0;
        for (int warm = 0; warm < 2; warm++) {
            cpu = 0;
            for (int i = 0; i < rounds; i++) {
                now += 1_000;
                long start = MX.getCurrentThreadCpuTime();
                SentHeartbeat sent = member.heartbeat(now);
                HeartbeatRequest request = delta ? sent.request() : withOwned(sent.request(), steady);
                JsonObject onWire = CoordinatorWire.toJson(request);
                HeartbeatResponse answer = coordinator.heartbeat(now, CoordinatorWire.heartbeatRequest(onWire))
                        .response();
                JsonObject back = CoordinatorWire.toJson(answer);
                member.onResponse(now, sent.requestId(), CoordinatorWire.heartbeatResponse(back));
                cpu += MX.getCurrentThreadCpuTime() - start;
            }
        }
        return cpu / 1_000.0 / rounds;
    }

    /** The member's request with its owned shards listed (a full heartbeat). */
    private static HeartbeatRequest withOwned(HeartbeatRequest r, HeartbeatRequest steady) {
        return new HeartbeatRequest(r.groupId(), r.memberId(), r.memberEpoch(), r.instanceId(), r.rack(),
                r.subscriptions(), steady.owned(), r.revoking(), r.assignmentEpoch(), r.weight(), false);
    }
}
