package io.shardline.runtime.testing;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waiting for futures and conditions in tests, always with a deadline. */
public final class Await {

    private Await() {
    }

    /** The result of {@code future}, waiting at most {@code timeout}; rethrows its failure. */
    public static <T> T result(Future<T> future, Duration timeout) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("future did not complete within " + timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The failure of {@code future}, waiting at most {@code timeout}; fails the test if it succeeds. */
    public static Throwable failure(Future<?> future, Duration timeout) {
        try {
            future.toCompletionStage().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("future did not complete within " + timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        throw new AssertionError("expected the future to fail, but it succeeded");
    }

    /** Retries {@code attempt} every {@code pollMs} until it succeeds or {@code timeout} passes. */
    public static <T> T eventually(Supplier<Future<T>> attempt, Duration timeout, long pollMs) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Throwable last = null;
        while (System.nanoTime() < deadline) {
            try {
                return result(attempt.get(), Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            } catch (RuntimeException | AssertionError e) {
                last = e;
            }
            pause(pollMs);
        }
        throw new AssertionError("did not succeed within " + timeout + "; last failure: " + last, last);
    }

    /** Waits until {@code condition} holds, checking every {@code pollMs}, failing after {@code timeout}. */
    public static void until(BooleanSupplier condition, Duration timeout, long pollMs, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            pause(pollMs);
        }
    }

    private static void pause(long ms) {
        try {
            TimeUnit.MILLISECONDS.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
