package io.shardline.chaos;

import io.shardline.chaos.verifying.HandlingLine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 *       only after {@code onAssigned});</li>
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
     * Groups handlings (of one stream) into calls, in the order of their first line.
     *
     * @param inLogOrder handlings, each member's lines in the order the member wrote them
     */
    static List<HandlerCall> of(List<HandlingLine> inLogOrder) {
        Map<String, List<HandlingLine>> byCall = new LinkedHashMap<>();
        Map<String, Long> legacyFrom = new HashMap<>();
        Map<String, Long> previousEnd = new HashMap<>();
        Map<String, long[]> lastBatch = new HashMap<>(); // per member: {last call number, process incarnation}
        int legacy = 0;
        for (HandlingLine h : inLogOrder) {
            String ownership = h.member() + "/" + h.shard() + "@" + h.epoch();
            String key;
            if (h.knowsBatch()) {
                // call numbers restart when the member's worker restarts and appends to the same file
                long[] last = lastBatch.computeIfAbsent(h.member(), m -> new long[] {0, 0});
                if (h.batch() < last[0]) {
                    last[1]++;
                }
                last[0] = h.batch();
                key = ownership + "#" + last[1] + "." + h.batch();
            } else {
                key = ownership + "#line" + legacy++;
                legacyFrom.put(key, previousEnd.getOrDefault(ownership, Long.MIN_VALUE));
            }
            previousEnd.put(ownership, h.endMs());
            byCall.computeIfAbsent(key, k -> new ArrayList<>()).add(h);
        }
        List<HandlerCall> calls = new ArrayList<>(byCall.size());
        byCall.forEach((key, lines) -> {
            HandlingLine first = lines.get(0);
            long from = first.knowsBatch() ? first.readyMs() : legacyFrom.get(key);
            long start = Long.MAX_VALUE;
            long end = Long.MIN_VALUE;
            for (HandlingLine h : lines) {
                from = Math.max(from, EntryId.parse(h.entryId()).ms());
                start = Math.min(start, h.startMs());
                end = Math.max(end, h.endMs());
            }
            calls.add(new HandlerCall(first.member(), first.shard(), first.epoch(), first.entryId(), lines.size(),
                    from, start, end));
        });
        return calls;
    }

    @Override
    public String toString() {
        return member + "@" + epoch + " call of " + records + " record(s) from " + firstEntryId + " (dispatched in ["
                + dispatchFromMs + ", " + startMs + "], ran until " + endMs + ")";
    }
}
