package io.shardline.runtime.redis;

/** Redis stream entry ids ({@code <ms>-<seq>}) compared as numbers. Stateless. */
public final class StreamIds {

    private StreamIds() {
    }

    /** Negative, zero or positive as {@code a} is below, equal to or above {@code b}. */
    public static int compare(String a, String b) {
        int c = Long.compareUnsigned(part(a, 0), part(b, 0));
        return c != 0 ? c : Long.compareUnsigned(part(a, 1), part(b, 1));
    }

    private static long part(String id, int which) {
        int dash = id.indexOf('-');
        if (dash < 0) {
            return which == 0 ? Long.parseUnsignedLong(id) : 0;
        }
        return Long.parseUnsignedLong(which == 0 ? id.substring(0, dash) : id.substring(dash + 1));
    }
}
