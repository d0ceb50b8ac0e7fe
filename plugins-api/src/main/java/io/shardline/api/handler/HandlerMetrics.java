package io.shardline.api.handler;

import java.util.function.Supplier;

/**
 * A handler's own metrics, scoped to its listener (the runtime prefixes every name with
 * {@code shardline.listener.<listener>.handler.}) and published with the worker's metrics (JMX,
 * {@code /metrics}). Names are dotted lower-case words, e.g. {@code "http.requests"}.
 *
 * <p>Implementations are thread-safe; asking twice for the same name returns the same metric.
 */
public interface HandlerMetrics {

    /** Adds {@code delta} to the counter {@code name}. */
    void increment(String name, long delta);

    /** Adds one to the counter {@code name}. */
    default void increment(String name) {
        increment(name, 1);
    }

    /** Records one duration, in nanoseconds, in the timer {@code name} (rate and percentiles). */
    void recordNanos(String name, long nanos);

    /** Records one value in the histogram {@code name} (percentiles of sizes, counts and the like). */
    void recordValue(String name, long value);

    /** Registers a gauge read on demand; registering the same name again replaces nothing and returns. */
    void gauge(String name, Supplier<? extends Number> value);

    /** A metrics view that drops everything (for tests of handlers). */
    static HandlerMetrics noop() {
        return NoopHandlerMetrics.INSTANCE;
    }
}
