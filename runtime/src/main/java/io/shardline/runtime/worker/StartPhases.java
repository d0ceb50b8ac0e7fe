package io.shardline.runtime.worker;

import java.util.StringJoiner;
import java.util.function.LongSupplier;

/**
 * Durations of a worker's start phases, for the one {@code Start phases (ms): ...} log line that shows where
 * the start time went (docs/operations.md, "Start time"). Not thread-safe: used by the starting thread only.
 */
final class StartPhases {

    private final LongSupplier clockMs;
    private final StringJoiner text = new StringJoiner(", ");
    private long last;

    StartPhases(LongSupplier clockMs) {
        this.clockMs = clockMs;
        this.last = clockMs.getAsLong();
    }

    /**
     * Ends the current phase. A label that already carries its own figures (such as
     * {@code "hazelcast 900, clustered vert.x 400"}) is followed by the phase total in brackets.
     */
    void done(String label) {
        long now = clockMs.getAsLong();
        long ms = now - last;
        last = now;
        text.add(label.matches(".*\\d$") ? label + " [" + ms + "]" : label + " " + ms);
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
