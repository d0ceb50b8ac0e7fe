package io.shardline.runtime.metrics;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.shardline.runtime.redis.MonitoringReads;
import io.shardline.runtime.redis.RedisClient;
import java.util.List;

/**
 * The worker's Redis client as gauges: the status and lag reads on the monitoring connection (in flight now, the
 * most at once, sent and refused so far) and the commands the shared pool refused because its wait queue was full.
 * The first say that monitoring stays within {@code redis.monitoring.in.flight}; the last should stay 0 (see
 * docs/reliability.md, "Overload"). Registered once per worker.
 */
public final class RedisMetrics {

    /** Monitoring reads in flight. */
    public static final MetricTemplate MONITORING_IN_FLIGHT = new MetricTemplate(
            "shardline.redis.monitoring.in-flight", MetricType.GAUGE,
            "Status and lag reads in flight now on the monitoring connection (at most redis.monitoring.in.flight).");
    /** The most monitoring reads in flight at once. */
    public static final MetricTemplate MONITORING_IN_FLIGHT_MAX = new MetricTemplate(
            "shardline.redis.monitoring.in-flight-max", MetricType.GAUGE,
            "The most status and lag reads that were in flight at once since the worker started.");
    /** Monitoring reads sent. */
    public static final MetricTemplate MONITORING_COMMANDS = new MetricTemplate(
            "shardline.redis.monitoring.commands", MetricType.GAUGE,
            "Status and lag reads sent to Redis since the worker started (only grows).");
    /** Monitoring reads refused. */
    public static final MetricTemplate MONITORING_REFUSED = new MetricTemplate(
            "shardline.redis.monitoring.refused", MetricType.GAUGE,
            "Status and lag reads refused at once since the worker started because 4096 others were waiting "
                    + "(only grows).");
    /** Commands the shared pool refused. */
    public static final MetricTemplate POOL_REFUSED = new MetricTemplate(
            "shardline.redis.pool.refused", MetricType.GAUGE,
            "Commands of the shared pool (coordinator writes, consumers' fenced calls) refused at once since the "
                    + "worker started because redis.pool.waiting others were waiting (only grows; should stay 0).");

    /** Every Redis client metric. */
    public static final List<MetricTemplate> TEMPLATES = List.of(MONITORING_IN_FLIGHT, MONITORING_IN_FLIGHT_MAX,
            MONITORING_COMMANDS, MONITORING_REFUSED, POOL_REFUSED);

    private RedisMetrics() {
    }

    /** Registers the gauges of {@code redis} in {@code registry}. */
    public static void register(MetricRegistry registry, RedisClient redis) {
        MonitoringReads reads = redis.monitoring();
        registry.gauge(MONITORING_IN_FLIGHT.name(), () -> (Gauge<Integer>) reads::inFlight);
        registry.gauge(MONITORING_IN_FLIGHT_MAX.name(), () -> (Gauge<Integer>) reads::mostInFlight);
        registry.gauge(MONITORING_COMMANDS.name(), () -> (Gauge<Long>) reads::commands);
        registry.gauge(MONITORING_REFUSED.name(), () -> (Gauge<Long>) reads::refused);
        registry.gauge(POOL_REFUSED.name(), () -> (Gauge<Long>) redis::poolRefused);
    }
}
