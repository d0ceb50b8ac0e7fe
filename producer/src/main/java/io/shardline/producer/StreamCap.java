package io.shardline.producer;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A Redis-side cap a producer adds to every {@code XADD}: {@code MAXLEN ~ n} (about {@code n} entries per shard) or
 * {@code MINID ~ <now - age>} (entries younger than {@code age}). Redis trims on the write, whether consumer groups
 * have read the trimmed entries or not: a cap <b>can drop records no group has read yet</b>. Shardline's own
 * retention (listener keys {@code retention.max.length}, {@code retention.max.age.ms}) never does; see
 * docs/operations.md, "Retention". Immutable.
 */
public final class StreamCap {

    /** No cap: plain {@code XADD}. */
    public static final StreamCap NONE = new StreamCap(null, 0, null);

    private final String strategy;
    private final long threshold;
    private final LongSupplier wallClockMs;

    private StreamCap(String strategy, long threshold, LongSupplier wallClockMs) {
        this.strategy = strategy;
        this.threshold = threshold;
        this.wallClockMs = wallClockMs;
    }

    /** {@code MAXLEN ~ maxLength}: Redis keeps about {@code maxLength} entries per shard (at least that many). */
    public static StreamCap maxLength(long maxLength) {
        if (maxLength < 1) {
            throw new IllegalArgumentException("a MAXLEN cap must be >= 1, got " + maxLength);
        }
        return new StreamCap("MAXLEN", maxLength, null);
    }

    /** {@code MINID ~ <now - maxAgeMs>-0}: Redis drops entries older than {@code maxAgeMs} by {@code wallClockMs}. */
    public static StreamCap maxAge(long maxAgeMs, LongSupplier wallClockMs) {
        if (maxAgeMs < 1) {
            throw new IllegalArgumentException("a MINID age cap must be >= 1 ms, got " + maxAgeMs);
        }
        return new StreamCap("MINID", maxAgeMs, Objects.requireNonNull(wallClockMs, "wallClockMs"));
    }

    /** Whether this is {@link #NONE}. */
    public boolean isNone() {
        return strategy == null;
    }

    /** The {@code XADD} arguments of the cap now ({@code MAXLEN ~ n} or {@code MINID ~ id}), none for {@link #NONE}. */
    public String[] arguments() {
        if (strategy == null) {
            return new String[0];
        }
        String value = "MAXLEN".equals(strategy) ? Long.toString(threshold)
                : Math.max(0, wallClockMs.getAsLong() - threshold) + "-0";
        return new String[] {strategy, "~", value};
    }

    @Override
    public String toString() {
        return strategy == null ? "none" : strategy + " ~ " + threshold + ("MINID".equals(strategy) ? " ms" : "");
    }
}
