package io.shardline.runtime.shard;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.shardline.api.handler.HandlerMetrics;
import io.shardline.runtime.metrics.SummingHistogram;
import io.shardline.runtime.metrics.SummingTimer;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@link HandlerMetrics} over a Dropwizard {@link MetricRegistry}, every name prefixed with
 * {@code shardline.listener.<listener>.handler.}. Thread-safe.
 */
public final class DropwizardHandlerMetrics implements HandlerMetrics {

    private final MetricRegistry registry;
    private final String prefix;

    /** Metrics of the handler of {@code listener} in {@code registry}. */
    public DropwizardHandlerMetrics(MetricRegistry registry, String listener) {
        this.registry = registry;
        this.prefix = "shardline.listener." + listener + ".handler.";
    }

    @Override
    public void increment(String name, long delta) {
        registry.counter(prefix + name).inc(delta);
    }

    @Override
    public void recordNanos(String name, long nanos) {
        registry.timer(prefix + name, SummingTimer::new).update(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void recordValue(String name, long value) {
        registry.histogram(prefix + name, SummingHistogram::new).update(value);
    }

    @Override
    public void gauge(String name, Supplier<? extends Number> value) {
        registry.gauge(prefix + name, () -> (Gauge<Number>) value::get);
    }
}
