package io.shardline.chaos.verifying;

import java.util.Objects;

/**
 * One handling of one record, as the verifying handler logs it: a tab-separated line
 * {@code listener stream shard entryId seq member epoch startMs endMs deliveryCount batch readyMs}. Immutable.
 *
 * <p>The chaos checker parses these lines with {@link #parse(String)}; the format is the contract between
 * the plugin (running inside a worker) and the checker (in the chaos runner's JVM). Lines of the first format
 * (the ten fields up to {@code deliveryCount}) are still read, with {@code batch} and {@code readyMs}
 * {@link #UNKNOWN}.
 *
 * <p>{@code batch} and {@code readyMs} locate the handler call in time. The runtime checks the member's lease on
 * the handler thread right before it calls the handler; a process frozen between that check and the handler's
 * first line runs the call late. That check (the dispatch) happened after {@code readyMs} (the runtime calls
 * the handler for one shard only after its previous call returned, and the first time only after
 * {@code onAssigned} returned) and before the {@code startMs} of the call's first line.
 *
 * @param listener the listener name
 * @param stream the logical stream
 * @param shard the shard index
 * @param entryId the Redis entry id {@code <ms>-<seq>}
 * @param seq the producer's sequence number ({@code -1} when the record had none)
 * @param member the member id that handled it
 * @param epoch the owner epoch under which the member held the shard
 * @param startMs when the handling started (epoch millis)
 * @param endMs when it ended (epoch millis)
 * @param deliveryCount the runtime's delivery count for the entry
 * @param batch the handler call this handling belongs to: a number per member, counting the member's calls
 *     from 1 (all lines of one call share it), or {@link #UNKNOWN}
 * @param readyMs when this member's shard (under this epoch) became ready for this call: its previous call on
 *     the shard returned, or {@code onAssigned} returned before the first call (epoch millis), or
 *     {@link #UNKNOWN}
 */
public record HandlingLine(String listener, String stream, int shard, String entryId, long seq, String member,
                           long epoch, long startMs, long endMs, int deliveryCount, long batch, long readyMs) {

    /** The number of tab-separated fields of a line. */
    public static final int FIELDS = 12;

    /** The number of fields of the first format, without {@code batch} and {@code readyMs}. */
    public static final int FIELDS_WITHOUT_BATCH = 10;

    /** The value of {@code batch} and {@code readyMs} when the line does not say (first format). */
    public static final long UNKNOWN = -1;

    /** Validates the text fields (no tabs or line breaks, which would break the format). */
    public HandlingLine {
        for (String s : new String[] {listener, stream, entryId, member}) {
            Objects.requireNonNull(s, "field");
            if (s.indexOf('\t') >= 0 || s.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("handling log fields must not contain tabs or newlines: '" + s + "'");
            }
        }
    }

    /** A line of the first format: it does not say which handler call it belongs to. */
    public HandlingLine(String listener, String stream, int shard, String entryId, long seq, String member,
                        long epoch, long startMs, long endMs, int deliveryCount) {
        this(listener, stream, shard, entryId, seq, member, epoch, startMs, endMs, deliveryCount, UNKNOWN, UNKNOWN);
    }

    /** True when the line names its handler call ({@code batch} and {@code readyMs}). */
    public boolean knowsBatch() {
        return batch != UNKNOWN && readyMs != UNKNOWN;
    }

    /** Appends this handling as one line (with its trailing newline). */
    public void appendTo(StringBuilder sb) {
        sb.append(listener).append('\t').append(stream).append('\t').append(shard).append('\t')
                .append(entryId).append('\t').append(seq).append('\t').append(member).append('\t')
                .append(epoch).append('\t').append(startMs).append('\t').append(endMs).append('\t')
                .append(deliveryCount).append('\t').append(batch).append('\t').append(readyMs).append('\n');
    }

    /**
     * Parses a line written by {@link #appendTo(StringBuilder)} (without the newline), or a line of the first
     * format (ten fields).
     *
     * @throws IllegalArgumentException naming the problem when the line is torn or malformed
     */
    public static HandlingLine parse(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != FIELDS && f.length != FIELDS_WITHOUT_BATCH) {
            throw new IllegalArgumentException("expected " + FIELDS + " tab-separated fields (or "
                    + FIELDS_WITHOUT_BATCH + " in the format without batch and readyMs), got " + f.length);
        }
        try {
            boolean withBatch = f.length == FIELDS;
            return new HandlingLine(f[0], f[1], Integer.parseInt(f[2]), f[3], Long.parseLong(f[4]), f[5],
                    Long.parseLong(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8]), Integer.parseInt(f[9]),
                    withBatch ? Long.parseLong(f[10]) : UNKNOWN, withBatch ? Long.parseLong(f[11]) : UNKNOWN);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a numeric field is not a number: " + e.getMessage(), e);
        }
    }
}
