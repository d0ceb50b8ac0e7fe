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
 *   <li><b>split ownership</b>: one owner epoch used by two members; or a handler call ({@link HandlerCall})
 *       under an older epoch that <em>started</em>, or was still running, after a newer epoch's first handling
 *       started (a stale owner processing beside the new one), unless a SIGSTOP explains it
 *       ({@link #frozenInFlight}; then it counts as {@code paused.in.flight}, a note);</li>
 *   <li><b>stale ack</b>: a record the group acknowledged whose every handling ended after a newer owner
 *       epoch had started on the shard: its ack can only have been accepted from a superseded epoch (this
 *       holds for tolerated calls too: their acks must have been refused);</li>
 *   <li><b>order</b>: the first handlings of records, per (shard, epoch, member) in log order, have
 *       strictly increasing entry ids.</li>
 * </ul>
 */
final class OwnershipCheck {

    private OwnershipCheck() {
    }

    static void check(History history, Map<ShardEntry, List<HandlingLine>> handled, ReportBuilder report) {
        Map<Integer, List<HandlingLine>> byShard = byShard(history);
        Map<Integer, List<HandlerCall>> calls = callsByShard(history);
        List<String> split = new ArrayList<>();
        List<String> pausedInFlight = new ArrayList<>();
        Map<Integer, Map<Long, Long>> firstStarts = new HashMap<>();
        for (Map.Entry<Integer, List<HandlingLine>> e : byShard.entrySet()) {
            int shard = e.getKey();
            firstStarts.put(shard, checkShard(shard, e.getValue(), calls.getOrDefault(shard, List.of()), history,
                    split, pausedInFlight));
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
            report.note("handler calls a SIGSTOP caught between their lease check and their end reached into the"
                    + " next owner's epoch (tolerated, fenced): " + ReportBuilder.sample(pausedInFlight));
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

    /** The handler calls of the run's stream per shard, each list by start. */
    private static Map<Integer, List<HandlerCall>> callsByShard(History history) {
        Map<Integer, List<HandlerCall>> byShard = new TreeMap<>();
        HandlerCall.of(history.handlings().stream().filter(h -> h.stream().equals(history.stream())).toList())
                .forEach(c -> byShard.computeIfAbsent(c.shard(), k -> new ArrayList<>()).add(c));
        byShard.values().forEach(l -> l.sort(Comparator.comparingLong(HandlerCall::startMs)));
        return byShard;
    }

    /** Checks one shard's handlings (sorted by start) and calls; returns each epoch's first start. */
    private static Map<Long, Long> checkShard(int shard, List<HandlingLine> sorted, List<HandlerCall> calls,
                                              History history, List<String> split, List<String> pausedInFlight) {
        Map<Long, String> epochMember = new HashMap<>();
        TreeMap<Long, Long> firstStart = new TreeMap<>();
        TreeMap<Long, Long> takenBy = new TreeMap<>();
        for (HandlingLine h : sorted) {
            String previous = epochMember.putIfAbsent(h.epoch(), h.member());
            if (previous != null && !previous.equals(h.member())) {
                split.add("shard " + shard + " epoch " + h.epoch() + " held by " + previous + " and " + h.member());
            }
            firstStart.merge(h.epoch(), h.startMs(), Math::min);
            takenBy.merge(h.epoch(), h.knowsBatch() ? Math.min(h.readyMs(), h.startMs()) : h.startMs(), Math::min);
        }
        for (HandlerCall c : calls) {
            Map.Entry<Long, Long> next = firstStart.tailMap(c.epoch(), false).entrySet().stream()
                    .min(Map.Entry.comparingByValue()).orElse(null);
            if (next == null || c.endMs() <= next.getValue()) {
                continue; // no newer epoch had started before this call ended
            }
            long newerTakenBy = takenBy.tailMap(c.epoch(), false).values().stream().min(Long::compare).orElseThrow();
            String what = "shard " + shard + ": " + c + (c.startMs() > next.getValue() ? " started after" : " overlapped")
                    + " epoch " + next.getKey() + ", which started at " + next.getValue();
            if (frozenInFlight(history, c, newerTakenBy)) {
                pausedInFlight.add(what);
            } else {
                split.add(what);
            }
        }
        return firstStart;
    }

    /**
     * True when a SIGSTOP explains why the call {@code c} reached into a newer owner's epoch although its lease
     * check passed: a pause of the call's worker whose stop can have taken effect inside the call's dispatch
     * window, i.e. after the window opened ({@code f.inEffectMs() >= c.dispatchFromMs()}: the stop had not
     * surely taken effect before), and before the newer owner can have taken the shard
     * ({@code f.startMs() <= newerTakenByMs}, the earliest ready time or start logged under any newer epoch;
     * the new owner's epoch was written before its {@code onAssigned}). A process frozen between its lease check
     * and its handler cannot stop the call it dispatched; fencing refuses that call's acks. A stop that took
     * effect before the window opened (the lease check came after it) or that began only after the new owner
     * had the shard explains nothing.
     */
    static boolean frozenInFlight(History history, HandlerCall c, long newerTakenByMs) {
        return history.faults().stream().anyMatch(f ->
                (f.kind() == FaultKind.PAUSE_WORKER || f.kind() == FaultKind.PAUSE_LEADER)
                        && f.hits(c.member()) && f.inEffectMs() >= c.dispatchFromMs() && f.startMs() <= newerTakenByMs);
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
