package io.shardline.chaos;

import io.shardline.chaos.verifying.HandlingLine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One handler call (one batch) of one member on one shard under one owner epoch, rebuilt from the handling
 * logs, with its <b>dispatch window</b>: the runtime checked the member's lease for this call (on the handler
 * thread, right before calling the handler) at some time in {@code [dispatchFromMs, startMs]}. Immutable.
 *
 * <p>{@code dispatchFromMs} is the latest of what the logs prove happened before the lease check:
 * <ul>
 *   <li>the handler's own {@code readyMs}: the member's previous call on the shard under this epoch returned,
 *       or {@code onAssigned} returned (the runtime calls the handler for one shard one call at a time, and
 *       only after {@code onAssigned}; a call that timed out and still ran while its retry was dispatched can
 *       make it later than the retry's real dispatch, which only narrows the window);</li>
 *   <li>the newest record of the call was written: the millisecond part of its entry id (the producer's
 *       {@code XADD *}, on the same host's clock);</li>
 *   <li>for lines of the first log format, which do not say which call they belong to (every line is then
 *       its own call): the end of the member's previous line on the shard under this epoch, in log order
 *       (for a line in the middle of a batch that is later than the real dispatch, which only narrows the
 *       window).</li>
 * </ul>
 *
 * @param member the member id
 * @param shard the shard index
 * @param epoch the owner epoch
 * @param firstEntryId the entry id of the call's first line
 * @param records the number of lines (records) of the call
 * @param dispatchFromMs the earliest time the call's lease check can have happened
 * @param startMs the start of the call's first line (the lease check happened before it)
 * @param endMs the end of the call's last line
 */
record HandlerCall(String member, int shard, long epoch, String firstEntryId, int records, long dispatchFromMs,
                   long startMs, long endMs) {

    /**
     * Groups handlings (of one stream) into calls, in log order. The verifying handler writes each call's lines
     * with one write, so a call is a run of consecutive lines with the same member, shard, epoch and call number
     * (call numbers restart with the worker process; a restarted member holds its shards under new epochs).
     *
     * @param inLogOrder handlings, each member's lines in the order the member wrote them
     */
    static List<HandlerCall> of(List<HandlingLine> inLogOrder) {
        List<List<HandlingLine>> runs = new ArrayList<>();
        List<Long> legacyFrom = new ArrayList<>();
        Map<String, Long> previousEnd = new HashMap<>();
        HandlingLine previous = null;
        for (HandlingLine h : inLogOrder) {
            String ownership = h.member() + "/" + h.shard() + "@" + h.epoch();
            if (h.knowsBatch() && previous != null && sameCall(previous, h)) {
                runs.get(runs.size() - 1).add(h);
            } else {
                runs.add(new ArrayList<>(List.of(h)));
                legacyFrom.add(previousEnd.getOrDefault(ownership, Long.MIN_VALUE));
            }
            previousEnd.put(ownership, h.endMs());
            previous = h;
        }
        List<HandlerCall> calls = new ArrayList<>(runs.size());
        for (int i = 0; i < runs.size(); i++) {
            List<HandlingLine> lines = runs.get(i);
            HandlingLine first = lines.get(0);
            long from = first.knowsBatch() ? first.readyMs() : legacyFrom.get(i);
            long start = Long.MAX_VALUE;
            long end = Long.MIN_VALUE;
            for (HandlingLine h : lines) {
                from = Math.max(from, EntryId.parse(h.entryId()).ms());
                start = Math.min(start, h.startMs());
                end = Math.max(end, h.endMs());
            }
            calls.add(new HandlerCall(first.member(), first.shard(), first.epoch(), first.entryId(), lines.size(),
                    from, start, end));
        }
        return calls;
    }

    private static boolean sameCall(HandlingLine a, HandlingLine b) {
        return a.knowsBatch() && a.batch() == b.batch() && a.epoch() == b.epoch() && a.shard() == b.shard()
                && a.member().equals(b.member()) && a.stream().equals(b.stream());
    }

    @Override
    public String toString() {
        return member + "@" + epoch + " call of " + records + " record(s) from " + firstEntryId + " (dispatched in ["
                + dispatchFromMs + ", " + startMs + "], ran until " + endMs + ")";
    }
}
