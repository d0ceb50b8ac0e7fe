package io.shardline.coordinator.testing;

/** A clock moved by hand: tests and simulations pass {@link #milliseconds()} as {@code nowMs}. */
public final class MockTime {

    private long nowMs;

    /** A clock at {@code startMs}. */
    public MockTime(long startMs) {
        this.nowMs = startMs;
    }

    /** The time now. */
    public long milliseconds() {
        return nowMs;
    }

    /** Moves the clock forward. */
    public void sleep(long ms) {
        if (ms < 0) {
            throw new IllegalArgumentException("cannot move time backwards by " + ms + " ms");
        }
        nowMs += ms;
    }

    /** Moves the clock to {@code ms} (never backwards). */
    public void setMilliseconds(long ms) {
        sleep(ms - nowMs);
    }
}
