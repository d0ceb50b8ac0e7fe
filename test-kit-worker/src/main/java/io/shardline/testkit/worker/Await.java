package io.shardline.testkit.worker;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition with a deadline, checking it every few milliseconds; on timeout fails with
 * an {@link AssertionError} that says what was awaited and what the state was then. Stateless.
 */
public final class Await {

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private Await() {
    }

    /**
     * Returns as soon as {@code condition} holds; throws when {@code timeout} passed first.
     *
     * @param what what is awaited, for the failure message ("100 records handled")
     * @param state the state to report on timeout ("42 handled, 3 dead-lettered")
     */
    public static void until(String what, Duration timeout, BooleanSupplier condition, Supplier<String> state) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what
                        + "; state: " + state.get());
            }
            LockSupport.parkNanos(POLL_NANOS);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what);
            }
        }
    }

    /** {@link #until(String, Duration, BooleanSupplier, Supplier)} without a state report. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        until(what, timeout, condition, () -> "(not reported)");
    }
}
