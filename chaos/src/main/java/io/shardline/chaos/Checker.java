package io.shardline.chaos;

import io.shardline.chaos.verifying.HandlingLine;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Jepsen-style offline checker of a chaos run (research notes §3.3: a {@code total-queue} checker plus
 * ownership, fencing and order checks): it turns a {@link History} into a {@link CheckReport}.
 *
 * <p>Violations (any one makes the run invalid):
 * <ul>
 *   <li><b>lost</b>: produced (XADD acknowledged) but never handled;</li>
 *   <li><b>redis lost</b>: produced but missing from the stream at the end (a durability failure), on a shard
 *       no resharding retired after the write ({@link History#retiredSince}: its key was removed once every group
 *       had drained it);</li>
 *   <li><b>left on retired shards</b>: entries on a shard key a resharding retired (it must be empty);</li>
 *   <li><b>unexpected</b>: handled but never attempted by the producer;</li>
 *   <li><b>acked, never handled</b>: acknowledged in the group (delivered, not pending) without a handling;</li>
 *   <li><b>dead-lettered</b>: the verifying handler never fails, so the dead-letter stream stays empty;</li>
 *   <li><b>duplicates</b> after a graceful restart, or more duplicates after one crash/pause than the
 *       crashed worker's in-flight capacity. A duplicate is charged to a fault on a worker only when the record's
 *       earlier handling was on that worker (or the later one: a stale call it ran when it woke); one whose earlier handling was on another worker (a worker with no
 *       fault, whose members must keep their shards through a fault elsewhere, e.g. a frozen leader) is a
 *       violation of its own. Duplicates with no injected fault before them are counted and noted: at-least-once
 *       allows them, e.g. after an ack timed out on an overloaded machine;</li>
 *   <li>the ownership, fencing and order checks of {@link OwnershipCheck}, and per-key order across shards and
 *       layouts ({@link KeyOrderCheck});</li>
 * </ul>
 * Failover times and processing gaps come from {@link FailoverAnalysis}. Pure: no I/O, no clock.
 */
public final class Checker {

    private Checker() {
    }

    /** Checks one run. */
    public static CheckReport check(History history) {
        ReportBuilder report = new ReportBuilder();
        Map<ShardEntry, List<HandlingLine>> handled = handledByEntry(history);
        checkDelivery(history, handled, report);
        checkDuplicates(history, handled, report);
        OwnershipCheck.check(history, handled, report);
        KeyOrderCheck.check(history, handled, report);
        FailoverAnalysis.analyse(history, report);
        return report.build();
    }

    /** The handlings of the run's stream, grouped by record; each list in log order. */
    static Map<ShardEntry, List<HandlingLine>> handledByEntry(History history) {
        Map<ShardEntry, List<HandlingLine>> handled = new TreeMap<>();
        for (HandlingLine h : history.handlings()) {
            if (h.stream().equals(history.stream())) {
                handled.computeIfAbsent(new ShardEntry(h.shard(), EntryId.parse(h.entryId())), k -> new ArrayList<>())
                        .add(h);
            }
        }
        return handled;
    }

    private static void checkDelivery(History history, Map<ShardEntry, List<HandlingLine>> handled,
                                      ReportBuilder report) {
        Map<ShardEntry, Produced> produced = new HashMap<>();
        Set<Long> attemptedSeqs = new HashSet<>(history.indeterminate());
        for (Produced p : history.produced()) {
            produced.put(new ShardEntry(p.shard(), p.entryId()), p);
            attemptedSeqs.add(p.seq());
        }
        Map<Integer, Set<EntryId>> inRedis = new HashMap<>();
        history.shards().forEach((shard, state) -> inRedis.put(shard, new HashSet<>(state.entries())));
        List<String> lost = new ArrayList<>();
        List<String> redisLost = new ArrayList<>();
        for (Produced p : history.produced().stream().sorted(Comparator.comparingLong(Produced::seq)).toList()) {
            ShardEntry key = new ShardEntry(p.shard(), p.entryId());
            if (!handled.containsKey(key)) {
                lost.add("seq " + p.seq() + " at " + key);
            }
            Set<EntryId> stream = inRedis.get(p.shard());
            if (stream != null && !history.retired(p.shard()) && !history.retiredSince(p.shard(), p.ackedAtMs())
                    && !stream.contains(p.entryId())) {
                redisLost.add("seq " + p.seq() + " at " + key);
            }
        }
        List<String> unexpected = new ArrayList<>();
        List<String> mismatched = new ArrayList<>();
        for (HandlingLine h : history.handlings()) {
            ShardEntry key = new ShardEntry(h.shard(), EntryId.parse(h.entryId()));
            Produced p = produced.get(key);
            if (!h.stream().equals(history.stream()) || !attemptedSeqs.contains(h.seq())) {
                unexpected.add(h.stream() + ":" + key + " seq " + h.seq());
            } else if (p != null && p.seq() != h.seq()) {
                mismatched.add(key + " produced seq " + p.seq() + " handled as seq " + h.seq());
            }
        }
        List<ShardEntry> ackedNotHandled = new ArrayList<>();
        List<String> leftOnRetired = new ArrayList<>();
        long pendingAtEnd = 0;
        for (ShardState state : new TreeMap<>(history.shards()).values()) {
            pendingAtEnd += state.pending().size();
            if (history.retired(state.shard()) && !state.entries().isEmpty()) {
                leftOnRetired.add("shard " + state.shard() + ": " + state.entries().size() + " entries");
            }
            for (EntryId id : state.ackedEntries()) {
                ShardEntry key = new ShardEntry(state.shard(), id);
                if (!handled.containsKey(key)) {
                    ackedNotHandled.add(key);
                }
            }
        }
        Set<Long> handledSeqs = new HashSet<>();
        history.handlings().forEach(h -> handledSeqs.add(h.seq()));
        long recovered = history.indeterminate().stream().filter(handledSeqs::contains).count();
        report.count("produced", history.produced().size())
                .count("produced.indeterminate", history.indeterminate().size())
                .count("produced.indeterminate.handled", recovered)
                .count("handlings", history.handlings().size())
                .count("handled.distinct", handled.size())
                .count("lost", lost.size())
                .count("redis.lost", redisLost.size())
                .count("unexpected", unexpected.size() + mismatched.size())
                .count("acked.not.handled", ackedNotHandled.size())
                .count("pending.at.end", pendingAtEnd)
                .count("shards.at.end", history.shardsAtEnd())
                .count("retired.shards.entries", leftOnRetired.size())
                .count("dead.lettered", history.deadLettered())
                .violationIf(lost, "lost records (produced, never handled)")
                .violationIf(redisLost, "acknowledged XADDs missing from Redis")
                .violationIf(unexpected, "unexpected records (handled, never produced)")
                .violationIf(mismatched, "records handled with another sequence number than produced")
                .violationIf(ackedNotHandled, "records acknowledged but never handled")
                .violationIf(leftOnRetired, "entries left on shards a resharding retired");
        if (history.deadLettered() > 0) {
            report.violation("dead-lettered records: " + history.deadLettered() + " (the verifying handler never fails)");
        }
    }

    private static void checkDuplicates(History history, Map<ShardEntry, List<HandlingLine>> handled,
                                        ReportBuilder report) {
        List<FaultEvent> faults = history.faults().stream().sorted(Comparator.comparingLong(FaultEvent::startMs)).toList();
        Map<Integer, Long> byFault = new TreeMap<>();
        List<String> steady = new ArrayList<>();
        List<String> graceful = new ArrayList<>();
        List<String> elsewhere = new ArrayList<>();
        long total = 0;
        for (Map.Entry<ShardEntry, List<HandlingLine>> e : handled.entrySet()) {
            List<HandlingLine> hs = e.getValue().stream().sorted(Comparator.comparingLong(HandlingLine::startMs)).toList();
            for (int i = 1; i < hs.size(); i++) {
                HandlingLine earlier = hs.get(i - 1);
                HandlingLine again = hs.get(i);
                total++;
                int f = lastFaultAtOrBefore(faults, again.startMs());
                if (f < 0) {
                    steady.add(e.getKey() + " again by " + again.member() + "@" + again.epoch());
                } else if (faults.get(f).kind().graceful()) {
                    graceful.add(e.getKey() + " again by " + again.member() + "@" + again.epoch() + " after " + faults.get(f));
                } else if (chargedTo(faults.get(f), earlier, again)) {
                    byFault.merge(f, 1L, Long::sum);
                } else {
                    elsewhere.add(e.getKey() + " handled by " + earlier.member() + "@" + earlier.epoch() + " then by "
                            + again.member() + "@" + again.epoch() + " after " + faults.get(f));
                }
            }
        }
        List<String> overBound = new ArrayList<>();
        byFault.forEach((f, n) -> {
            FaultEvent fault = faults.get(f);
            long bound = fault.kind() == FaultKind.KILL_REDIS
                    ? (long) history.inFlightPerWorker() * workers(history)
                    : history.inFlightPerWorker();
            if (n > bound) {
                overBound.add(n + " after " + fault + " (bound " + bound + ")");
            }
        });
        report.count("duplicates", total)
                .count("duplicates.graceful", graceful.size())
                .count("duplicates.without.fault", steady.size())
                .count("duplicates.on.other.workers", elsewhere.size())
                .violationIf(graceful, "duplicates after graceful restarts")
                .violationIf(elsewhere, "duplicates of records first handled on a worker the fault did not hit")
                .violationIf(overBound, "duplicates above the in-flight capacity of the failed worker");
        if (!steady.isEmpty()) {
            // at-least-once allows them (e.g. an ack that timed out on an overloaded machine); the issue bounds
            // only graceful restarts and crashes, so they are reported, not judged
            report.note("duplicates with no injected fault before them: " + steady.size() + " (e.g. "
                    + ReportBuilder.sample(steady) + ")");
        }
    }

    /**
     * Whether a duplicate whose earlier handling is {@code earlier} is the cost of {@code fault}: a fault on Redis
     * costs every worker; a fault on a worker only the records that worker had handled (or handled again itself:
     * a call it had dispatched before a freeze runs when it wakes, after the new owner's, see "What a frozen
     * process can still do" in docs/reliability.md).
     */
    private static boolean chargedTo(FaultEvent fault, HandlingLine earlier, HandlingLine again) {
        return fault.kind() == FaultKind.KILL_REDIS || fault.hits(earlier.member()) || fault.hits(again.member());
    }

    /** The index of the last fault that started at or before {@code timeMs}, or -1. */
    static int lastFaultAtOrBefore(List<FaultEvent> faultsByStart, long timeMs) {
        int found = -1;
        for (int i = 0; i < faultsByStart.size() && faultsByStart.get(i).startMs() <= timeMs; i++) {
            found = i;
        }
        return found;
    }

    /** The number of distinct workers seen in the handling logs (member ids {@code <worker>-...}). */
    private static int workers(History history) {
        Set<String> workers = new TreeSet<>();
        history.handlings().forEach(h -> workers.add(h.member().substring(0, Math.max(0, h.member().indexOf('-')))));
        return Math.max(1, workers.size());
    }
}
