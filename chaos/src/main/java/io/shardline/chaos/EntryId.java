package io.shardline.chaos;

/**
 * A Redis stream entry id {@code <ms>-<seq>}, ordered as Redis orders them. Immutable.
 *
 * @param ms the millisecond part
 * @param seq the sequence part
 */
public record EntryId(long ms, long seq) implements Comparable<EntryId> {

    /**
     * Parses {@code <ms>-<seq>}.
     *
     * @throws IllegalArgumentException naming the text when it is not an entry id
     */
    public static EntryId parse(String text) {
        int dash = text.indexOf('-');
        if (dash <= 0) {
            throw new IllegalArgumentException("not a stream entry id (expected <ms>-<seq>): '" + text + "'");
        }
        try {
            return new EntryId(Long.parseLong(text.substring(0, dash)), Long.parseLong(text.substring(dash + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a stream entry id (expected <ms>-<seq>): '" + text + "'", e);
        }
    }

    @Override
    public int compareTo(EntryId other) {
        int c = Long.compare(ms, other.ms);
        return c != 0 ? c : Long.compare(seq, other.seq);
    }

    @Override
    public String toString() {
        return ms + "-" + seq;
    }
}
