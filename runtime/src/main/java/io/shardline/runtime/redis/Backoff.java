package io.shardline.runtime.redis;

import java.util.random.RandomGenerator;

/**
 * Exponential backoff with full jitter: attempt {@code n} (from 0) waits a random time in
 * {@code [cap/2, cap]} where {@code cap = min(max, initial * 2^n)}, so reconnecting clients do not
 * hit a recovering server in lockstep.
 *
 * <p>Immutable; thread-safe when the random generator is.
 *
 * @param initialMs the cap of the first attempt
 * @param maxMs the largest cap
 * @param random source of jitter (injected so tests are deterministic)
 */
public record Backoff(long initialMs, long maxMs, RandomGenerator random) {

    /** Validates the bounds. */
    public Backoff {
        if (initialMs <= 0 || maxMs < initialMs) {
            throw new IllegalArgumentException("backoff needs 0 < initialMs <= maxMs: " + initialMs + ", " + maxMs);
        }
    }

    /** The delay before attempt {@code attempt} (0-based). */
    public long delayMs(int attempt) {
        long cap = initialMs;
        for (int i = 0; i < attempt && cap < maxMs; i++) {
            cap = Math.min(maxMs, cap * 2);
        }
        long half = Math.max(1, cap / 2);
        return half + random.nextLong(cap - half + 1);
    }
}
