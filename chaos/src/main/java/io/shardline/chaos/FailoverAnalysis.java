package io.shardline.chaos;

import io.shardline.chaos.verifying.HandlingLine;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Timings around faults, from the handling logs:
 * <ul>
 *   <li><b>failover</b> per crash or pause: for every shard whose last owner before the fault ran on the
 *       target worker, the time from the fault to the first handling under a newer owner epoch (KIP-848's
 *       "partition lost → assigned"). A shard that never got a newer owner is a violation;</li>
 *   <li><b>gap on unchanged shards</b>: around every rebalance-causing fault, the largest pause between two
 *       handlings on shards whose owner (member and epoch) did not change, next to the baseline p99 of such
 *       pauses away from faults (the research notes' "stop-the-world" measure; reported, not judged).</li>
 * </ul>
 */
final class FailoverAnalysis {

    /** The part of the window before a fault that the gap analysis looks at. */
    static final long BEFORE_MS = 1_000;

    private FailoverAnalysis() {
    }

    static void analyse(History history, ReportBuilder report) {
        Map<Integer, List<HandlingLine>> byShard = OwnershipCheck.byShard(history);
        Map<FaultKind, List<Long>> failovers = new EnumMap<>(FaultKind.class);
        Map<Integer, Long> lastProduced = new HashMap<>();
        history.produced().forEach(p -> lastProduced.merge(p.shard(), p.ackedAtMs(), Math::max));
        List<String> stuck = new ArrayList<>();
        List<Long> unchangedGaps = new ArrayList<>();
        for (FaultEvent fault : history.faults()) {
            if (fault.kind().ownerLoss()) {
                failovers.computeIfAbsent(fault.kind(), k -> new ArrayList<>())
                        .addAll(failoverTimes(fault, byShard, lastProduced, stuck));
            }
            if (fault.kind() != FaultKind.KILL_REDIS) {
                unchangedGaps.addAll(unchangedShardGaps(fault, window(history, fault), byShard));
            }
        }
        List<Long> crashes = new ArrayList<>();
        crashes.addAll(failovers.getOrDefault(FaultKind.KILL_WORKER, List.of()));
        crashes.addAll(failovers.getOrDefault(FaultKind.KILL_LEADER, List.of()));
        report.timing("failover.kill", crashes);
        failovers.forEach((kind, times) -> report.timing("failover." + kind, times));
        report.count("failover.stuck.shards", stuck.size())
                .count("gap.baseline.p99.ms", Distribution.percentile(baselineGaps(history, byShard), 0.99))
                .timing("gap.unchanged.shards.max", unchangedGaps)
                .violationIf(stuck, "orphaned shards that never got a new owner");
        long target = history.sessionTimeoutMs() + 1_000;
        Distribution kill = Distribution.of(crashes);
        if (kill.count() > 0) {
            report.note("failover p95 after kills " + kill.p95() + " ms; target <= session timeout + 1 s = " + target
                    + " ms: " + (kill.p95() <= target ? "met" : "MISSED"));
        }
    }

    /**
     * The failover time of every shard the fault orphaned; a shard that got no new owner is stuck. A shard that
     * neither got records nor was handled after the fault is not orphaned: a resharding had retired it before.
     */
    private static List<Long> failoverTimes(FaultEvent fault, Map<Integer, List<HandlingLine>> byShard,
                                            Map<Integer, Long> lastProduced, List<String> stuck) {
        List<Long> times = new ArrayList<>();
        byShard.forEach((shard, hs) -> {
            if (lastProduced.getOrDefault(shard, Long.MIN_VALUE) < fault.startMs()
                    && hs.get(hs.size() - 1).startMs() < fault.startMs()) {
                return;
            }
            HandlingLine owner = null;
            for (HandlingLine h : hs) {
                if (h.startMs() >= fault.startMs()) {
                    break;
                }
                owner = h;
            }
            if (owner == null || !fault.hits(owner.member())) {
                return;
            }
            long ownerEpoch = owner.epoch();
            hs.stream().filter(h -> h.startMs() >= fault.startMs() && h.epoch() > ownerEpoch).findFirst()
                    .ifPresentOrElse(h -> times.add(h.startMs() - fault.startMs()),
                            () -> stuck.add("shard " + shard + " after " + fault));
        });
        return times;
    }

    /** The span a fault disturbs: from 1 s before it to two session timeouts after it ended. */
    private static long[] window(History history, FaultEvent fault) {
        return new long[] {fault.startMs() - BEFORE_MS, fault.endMs() + 2 * history.sessionTimeoutMs()};
    }

    private static List<Long> unchangedShardGaps(FaultEvent fault, long[] window,
                                                 Map<Integer, List<HandlingLine>> byShard) {
        List<Long> maxGaps = new ArrayList<>();
        byShard.forEach((shard, hs) -> {
            HandlingLine before = null;
            boolean changed = false;
            long maxGap = -1;
            for (HandlingLine h : hs) {
                if (h.startMs() < window[0]) {
                    before = h;
                } else if (h.startMs() <= window[1] && before != null) {
                    changed |= h.epoch() != before.epoch() || !h.member().equals(before.member());
                    maxGap = Math.max(maxGap, h.startMs() - before.startMs());
                    before = h;
                }
            }
            if (!changed && maxGap >= 0 && !fault.hits(before.member())) {
                maxGaps.add(maxGap);
            }
        });
        return maxGaps.isEmpty() ? List.of() : List.of(maxGaps.stream().mapToLong(Long::longValue).max().orElse(0));
    }

    private static List<Long> baselineGaps(History history, Map<Integer, List<HandlingLine>> byShard) {
        List<long[]> windows = history.faults().stream().map(f -> window(history, f)).toList();
        List<Long> gaps = new ArrayList<>();
        byShard.values().forEach(hs -> {
            for (int i = 1; i < hs.size(); i++) {
                long from = hs.get(i - 1).startMs();
                long to = hs.get(i).startMs();
                if (windows.stream().noneMatch(w -> from <= w[1] && to >= w[0])) {
                    gaps.add(to - from);
                }
            }
        });
        return gaps;
    }
}
