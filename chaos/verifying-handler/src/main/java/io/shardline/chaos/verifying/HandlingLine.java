package io.shardline.chaos.verifying;

import java.util.Objects;

/**
 * One handling of one record, as the verifying handler logs it: a tab-separated line
 * {@code listener stream shard entryId seq member epoch startMs endMs deliveryCount}. Immutable.
 *
 * <p>The chaos checker parses these lines with {@link #parse(String)}; the format is the contract between
 * the plugin (running inside a worker) and the checker (in the chaos runner's JVM).
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
 */
public record HandlingLine(String listener, String stream, int shard, String entryId, long seq, String member,
                           long epoch, long startMs, long endMs, int deliveryCount) {

    /** The number of tab-separated fields of a line. */
    public static final int FIELDS = 10;

    /** Validates the text fields (no tabs or line breaks, which would break the format). */
    public HandlingLine {
        for (String s : new String[] {listener, stream, entryId, member}) {
            Objects.requireNonNull(s, "field");
            if (s.indexOf('\t') >= 0 || s.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("handling log fields must not contain tabs or newlines: '" + s + "'");
            }
        }
    }

    /** Appends this handling as one line (with its trailing newline). */
    public void appendTo(StringBuilder sb) {
        sb.append(listener).append('\t').append(stream).append('\t').append(shard).append('\t')
                .append(entryId).append('\t').append(seq).append('\t').append(member).append('\t')
                .append(epoch).append('\t').append(startMs).append('\t').append(endMs).append('\t')
                .append(deliveryCount).append('\n');
    }

    /**
     * Parses a line written by {@link #appendTo(StringBuilder)} (without the newline).
     *
     * @throws IllegalArgumentException naming the problem when the line is torn or malformed
     */
    public static HandlingLine parse(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != FIELDS) {
            throw new IllegalArgumentException("expected " + FIELDS + " tab-separated fields, got " + f.length);
        }
        try {
            return new HandlingLine(f[0], f[1], Integer.parseInt(f[2]), f[3], Long.parseLong(f[4]), f[5],
                    Long.parseLong(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8]), Integer.parseInt(f[9]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a numeric field is not a number: " + e.getMessage(), e);
        }
    }
}
