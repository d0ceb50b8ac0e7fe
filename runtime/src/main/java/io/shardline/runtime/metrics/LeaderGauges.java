package io.shardline.runtime.metrics;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The per-stream metrics of a task the leader runs (resharding, retention): gauges registered on first use and held
 * as values the task sets, counters, and the removal of every one of them under the task's name prefix when this
 * worker stops leading. Thread-safe.
 */
final class LeaderGauges {

    private final MetricRegistry registry;
    private final String prefix;
    private final Map<String, AtomicLong> gauges = new ConcurrentHashMap<>();
    private volatile boolean registered;

    /** Metrics in {@code registry} whose names start with {@code prefix}. */
    LeaderGauges(MetricRegistry registry, String prefix) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    /** Sets gauge {@code name} to {@code value}, registering it on first use. */
    void set(String name, long value) {
        registered = true;
        gauges.computeIfAbsent(name, n -> {
            AtomicLong holder = new AtomicLong();
            registry.gauge(n, () -> (Gauge<Long>) holder::get);
            return holder;
        }).set(value);
    }

    /** The counter {@code name} (removed with the gauges). */
    Counter counter(String name) {
        registered = true;
        return registry.counter(name);
    }

    /** Removes every metric under the prefix, when any was registered since the last removal. */
    void clear() {
        if (registered) {
            registered = false;
            registry.removeMatching((name, metric) -> name.startsWith(prefix));
            gauges.clear();
        }
    }
}
