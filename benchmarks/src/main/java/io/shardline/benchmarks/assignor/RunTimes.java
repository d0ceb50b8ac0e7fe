package io.shardline.benchmarks.assignor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The measured times of one assignor on one scenario: median, min and max in milliseconds, and how many runs
 * they summarise. Immutable.
 *
 * @param medianMs the median of the measured runs (the mean of the two middle ones for an even count)
 * @param minMs the fastest measured run
 * @param maxMs the slowest measured run
 * @param runs how many runs were measured (after the warm-ups)
 */
record RunTimes(double medianMs, double minMs, double maxMs, int runs) {

    /** Summarises {@code ms}, one entry per measured run; at least one. */
    static RunTimes of(double... ms) {
        if (ms.length == 0) {
            throw new IllegalArgumentException("no measured runs");
        }
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new RunTimes(median, sorted[0], sorted[n - 1], n);
    }

    /** {@code median (min-max)} in whole milliseconds, or just the time of a single run. */
    String format() {
        if (runs == 1) {
            return String.format(Locale.ROOT, "%.0f (1 run)", medianMs);
        }
        return String.format(Locale.ROOT, "%s (%s-%s)", ms(medianMs), ms(minMs), ms(maxMs));
    }

    private static String ms(double value) {
        return value < 10 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.0f", value);
    }

    /** The 1-minute load average from {@code /proc/loadavg}, or {@code ?} where there is none. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0];
        } catch (java.io.IOException | RuntimeException e) {
            return "?";
        }
    }
}
