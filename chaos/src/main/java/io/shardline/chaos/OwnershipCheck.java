package io.shardline.chaos;

import io.shardline.chaos.verifying.HandlingLine;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Single ownership, fencing and order, checked per shard from the handling logs and the final Redis state.
 * All processes run on one host, so their wall clocks are the same clock.
 *
 * <ul>
 *   <li><b>split ownership</b>: one owner epoch used by two members; or a handling that <em>starts</em> under
 *       an older epoch after a newer epoch's first handling started (a stale owner taking new work); or an
 *       older owner's handling still running when the next owner started, unless a SIGSTOP of the older
 *       owner's worker falls inside that handling (a paused process cannot stop; fencing refuses its ack);</li>
 *   <li><b>stale ack</b>: a record the group acknowledged whose every handling ended after a newer owner
 *       epoch had started on the shard: its ack can only have been accepted from a superseded epoch;</li>
 *   <li><b>order</b>: the first handlings of records, per (shard, epoch, member) in log order, have
 *       strictly increasing entry ids.</li>
 * </ul>
 */
final class OwnershipCheck {

    private OwnershipCheck() {
    }

    static void check(History history, Map<ShardEntry, List<HandlingLine>> handled, ReportBuilder report) {
        Map<Integer, List<HandlingLine>> byShard = byShard(history);
        List<String> split = new ArrayList<>();
        List<String> pausedInFlight = new ArrayList<>();
        Map<Integer, Map<Long, Long>> firstStarts = new HashMap<>();
        for (Map.Entry<Integer, List<HandlingLine>> e : byShard.entrySet()) {
            firstStarts.put(e.getKey(), checkShard(e.getKey(), e.getValue(), history, split, pausedInFlight));
        }
        List<String> staleAcks = staleAcks(history, handled, firstStarts);
        List<String> order = orderViolations(history, handled);
        report.count("split.ownership", split.size())
                .count("paused.in.flight", pausedInFlight.size())
                .count("stale.acks", staleAcks.size())
                .count("order.violations", order.size())
                .violationIf(split, "split ownership (two owners processing one shard)")
                .violationIf(staleAcks, "acks accepted from a stale owner epoch")
                .violationIf(order, "per-shard order violations (first handlings out of entry-id order)");
        if (!pausedInFlight.isEmpty()) {
            report.note("handlings caught by a SIGSTOP overlapped the next owner (tolerated, fenced): "
                    + ReportBuilder.sample(pausedInFlight));
        }
    }

    static Map<Integer, List<HandlingLine>> byShard(History history) {
        Map<Integer, List<HandlingLine>> byShard = new TreeMap<>();
        history.handlings().stream()
                .filter(h -> h.stream().equals(history.stream()))
                .forEach(h -> byShard.computeIfAbsent(h.shard(), k -> new ArrayList<>()).add(h));
        byShard.values().forEach(l -> l.sort(Comparator.comparingLong(HandlingLine::startMs)
                .thenComparingLong(HandlingLine::epoch)));
        return byShard;
    }

    /** Checks one shard's handlings (sorted by start); returns each epoch's first start. */
    private static Map<Long, Long> checkShard(int shard, List<HandlingLine> sorted, History history,
                                              List<String> split, List<String> pausedInFlight) {
        Map<Long, String> epochMember = new HashMap<>();
        Map<Long, Long> firstStart = new LinkedHashMap<>();
        Map<Long, HandlingLine> longest = new HashMap<>();
        long maxEpoch = Long.MIN_VALUE;
        for (HandlingLine h : sorted) {
            String previous = epochMember.putIfAbsent(h.epoch(), h.member());
            if (previous != null && !previous.equals(h.member())) {
                split.add("shard " + shard + " epoch " + h.epoch() + " held by " + previous + " and " + h.member());
            }
            if (h.epoch() < maxEpoch) {
                split.add("shard " + shard + ": " + h.member() + "@" + h.epoch() + " started " + h.entryId() + " at "
                        + h.startMs() + " after epoch " + maxEpoch + " started at " + firstStart.get(maxEpoch));
            }
            maxEpoch = Math.max(maxEpoch, h.epoch());
            firstStart.putIfAbsent(h.epoch(), h.startMs());
            longest.merge(h.epoch(), h, (a, b) -> b.endMs() > a.endMs() ? b : a);
        }
        List<Long> epochs = firstStart.keySet().stream().sorted().toList();
        for (int i = 0; i + 1 < epochs.size(); i++) {
            HandlingLine last = longest.get(epochs.get(i));
            long nextStart = firstStart.get(epochs.get(i + 1));
            if (last.endMs() > nextStart) {
                String what = "shard " + shard + ": " + last.member() + "@" + last.epoch() + " handled " + last.entryId()
                        + " until " + last.endMs() + ", epoch " + epochs.get(i + 1) + " started at " + nextStart;
                if (pausedDuring(history, last)) {
                    pausedInFlight.add(what);
                } else {
                    split.add(what);
                }
            }
        }
        return firstStart;
    }

    private static boolean pausedDuring(History history, HandlingLine h) {
        return history.faults().stream().anyMatch(f ->
                (f.kind() == FaultKind.PAUSE_WORKER || f.kind() == FaultKind.PAUSE_LEADER)
                        && f.hits(h.member()) && f.startMs() <= h.endMs() && f.endMs() >= h.startMs());
    }

    private static List<String> staleAcks(History history, Map<ShardEntry, List<HandlingLine>> handled,
                                          Map<Integer, Map<Long, Long>> firstStarts) {
        List<String> stale = new ArrayList<>();
        for (ShardState state : new TreeMap<>(history.shards()).values()) {
            Map<Long, Long> starts = firstStarts.getOrDefault(state.shard(), Map.of());
            for (EntryId id : state.ackedEntries()) {
                List<HandlingLine> hs = handled.get(new ShardEntry(state.shard(), id));
                if (hs != null && hs.stream().allMatch(h -> supersededBefore(starts, h.epoch(), h.endMs()))) {
                    HandlingLine h = hs.get(hs.size() - 1);
                    stale.add(state.shard() + "/" + id + " last handled by " + h.member() + "@" + h.epoch()
                            + " until " + h.endMs());
                }
            }
        }
        return stale;
    }

    /** True when an epoch newer than {@code epoch} had started before {@code timeMs}. */
    private static boolean supersededBefore(Map<Long, Long> firstStarts, long epoch, long timeMs) {
        return firstStarts.entrySet().stream().anyMatch(e -> e.getKey() > epoch && e.getValue() < timeMs);
    }

    private static List<String> orderViolations(History history, Map<ShardEntry, List<HandlingLine>> handled) {
        Set<HandlingLine> firsts = Collections.newSetFromMap(new IdentityHashMap<>());
        handled.values().forEach(hs -> firsts.add(hs.stream().min(Comparator.comparingLong(HandlingLine::startMs))
                .orElseThrow()));
        // Log order: the handlings of one (shard, epoch, member) come from one member's file, in file order.
        Map<String, List<HandlingLine>> firstByOwner = new LinkedHashMap<>();
        for (HandlingLine h : history.handlings()) {
            if (firsts.contains(h)) {
                firstByOwner.computeIfAbsent(h.shard() + "@" + h.epoch() + "/" + h.member(), k -> new ArrayList<>()).add(h);
            }
        }
        List<String> violations = new ArrayList<>();
        firstByOwner.forEach((owner, hs) -> {
            for (int i = 1; i < hs.size(); i++) {
                EntryId before = EntryId.parse(hs.get(i - 1).entryId());
                EntryId now = EntryId.parse(hs.get(i).entryId());
                if (now.compareTo(before) <= 0) {
                    violations.add("shard " + owner + ": " + now + " first handled after " + before);
                }
            }
        });
        return violations;
    }
}
