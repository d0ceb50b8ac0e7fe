package io.shardline.api.handler;

import java.util.function.Supplier;

/** {@link HandlerMetrics} that records nothing. */
enum NoopHandlerMetrics implements HandlerMetrics {
    INSTANCE;

    @Override
    public void increment(String name, long delta) {
    }

    @Override
    public void recordNanos(String name, long nanos) {
    }

    @Override
    public void recordValue(String name, long value) {
    }

    @Override
    public void gauge(String name, Supplier<? extends Number> value) {
    }
}
