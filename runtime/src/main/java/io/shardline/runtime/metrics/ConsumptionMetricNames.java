package io.shardline.runtime.metrics;

import java.util.List;

/**
 * The names of the per-listener consumption metrics that {@link io.shardline.runtime.shard.ConsumptionMetrics}
 * registers (that class owns the registration; this one documents and exports them). A test checks that
 * the two agree.
 */
public final class ConsumptionMetricNames {

    /** Records handled. */
    public static final MetricTemplate HANDLED = new MetricTemplate("shardline.listener.<listener>.records.handled",
            MetricType.METER, "Records handled successfully (acknowledged after the handler returned).");
    /** Records dead-lettered. */
    public static final MetricTemplate DEAD_LETTERED = new MetricTemplate(
            "shardline.listener.<listener>.records.dead-lettered", MetricType.METER,
            "Records written to the dead-letter stream after their last failed attempt.");

    /** Every consumption metric. */
    public static final List<MetricTemplate> TEMPLATES = List.of(HANDLED, DEAD_LETTERED,
            new MetricTemplate("shardline.listener.<listener>.handler.failed-attempts", MetricType.METER,
                    "Failed handler attempts (each one is retried with backoff until max.attempts)."),
            new MetricTemplate("shardline.listener.<listener>.handler.batch-time", MetricType.TIMER,
                    "Handler latency: time of one handler call on a batch."),
            new MetricTemplate("shardline.listener.<listener>.shards.fenced", MetricType.METER,
                    "Shards this worker stopped because a fenced read or ack found a newer owner epoch."),
            new MetricTemplate("shardline.listener.<listener>.redis.errors", MetricType.METER,
                    "Redis commands of the poller that failed (timeouts, disconnects)."));

    private ConsumptionMetricNames() {
    }
}
