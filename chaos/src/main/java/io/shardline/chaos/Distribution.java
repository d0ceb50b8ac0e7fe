package io.shardline.chaos;

import java.util.Arrays;
import java.util.Collection;

/**
 * A summary of measured durations in milliseconds: count, p50, p95 and max (nearest-rank percentiles).
 * Immutable.
 *
 * @param count how many values
 * @param p50 the median, 0 when empty
 * @param p95 the 95th percentile, 0 when empty
 * @param max the largest value, 0 when empty
 */
public record Distribution(int count, long p50, long p95, long max) {

    /** Summarizes the values. */
    public static Distribution of(Collection<Long> values) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        if (sorted.length == 0) {
            return new Distribution(0, 0, 0, 0);
        }
        return new Distribution(sorted.length, rank(sorted, 0.50), rank(sorted, 0.95), sorted[sorted.length - 1]);
    }

    /** The nearest-rank percentile {@code q} (0..1) of already sorted values. */
    static long rank(long[] sorted, double q) {
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    /** The nearest-rank percentile {@code q} (0..1) of unsorted values; 0 when empty. */
    public static long percentile(Collection<Long> values, double q) {
        long[] sorted = values.stream().mapToLong(Long::longValue).toArray();
        if (sorted.length == 0) {
            return 0;
        }
        Arrays.sort(sorted);
        return rank(sorted, q);
    }

    @Override
    public String toString() {
        return count == 0 ? "n=0" : "n=" + count + " p50=" + p50 + "ms p95=" + p95 + "ms max=" + max + "ms";
    }
}
