package io.shardline.coordinator.simulation;

import java.util.Map;
import java.util.TreeMap;

/** Counts what happened over the seeds of a run, to show that every fault kind was exercised. */
final class SimStats {

    private final TreeMap<String, Long> counts = new TreeMap<>();
    private final TreeMap<String, Long> maxima = new TreeMap<>();

    void add(String what, long n) {
        counts.merge(what, n, Long::sum);
    }

    void inc(String what) {
        add(what, 1);
    }

    /** Keeps the largest {@code value} seen for {@code what} (over seeds too). */
    void max(String what, long value) {
        maxima.merge(what, value, Math::max);
    }

    long max(String what) {
        return maxima.getOrDefault(what, 0L);
    }

    long get(String what) {
        return counts.getOrDefault(what, 0L);
    }

    void addAll(SimStats other) {
        other.counts.forEach(this::add);
        other.maxima.forEach(this::max);
    }

    Map<String, Long> counts() {
        return counts;
    }

    @Override
    public String toString() {
        return maxima.isEmpty() ? counts.toString() : counts + " max " + maxima;
    }
}
