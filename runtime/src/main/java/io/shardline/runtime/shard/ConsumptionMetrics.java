package io.shardline.runtime.shard;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.shardline.runtime.metrics.SummingTimer;
import java.util.concurrent.TimeUnit;

/**
 * The consumption metrics of one listener, all named {@code shardline.listener.<listener>.<name>}:
 * records handled, dead-lettered, failed handler attempts, fenced shards, Redis errors, and the handler
 * batch time. Thread-safe (Dropwizard metrics are).
 */
public final class ConsumptionMetrics {

    private final Meter handled;
    private final Meter deadLettered;
    private final Meter failedAttempts;
    private final Meter fenced;
    private final Meter redisErrors;
    private final Timer batchTime;

    /** Registers (or finds) the listener's metrics in {@code registry}. */
    public ConsumptionMetrics(MetricRegistry registry, String listener) {
        String prefix = "shardline.listener." + listener + ".";
        handled = registry.meter(prefix + "records.handled");
        deadLettered = registry.meter(prefix + "records.dead-lettered");
        failedAttempts = registry.meter(prefix + "handler.failed-attempts");
        fenced = registry.meter(prefix + "shards.fenced");
        redisErrors = registry.meter(prefix + "redis.errors");
        batchTime = registry.timer(prefix + "handler.batch-time", SummingTimer::new);
    }

    void handled(int records, long nanos) {
        handled.mark(records);
        batchTime.update(nanos, TimeUnit.NANOSECONDS);
    }

    void deadLettered() {
        deadLettered.mark();
    }

    void failedAttempt() {
        failedAttempts.mark();
    }

    void fenced() {
        fenced.mark();
    }

    void redisError() {
        redisErrors.mark();
    }

    /** Records handled so far (acknowledged after success). */
    public long handledCount() {
        return handled.getCount();
    }

    /** Records dead-lettered so far. */
    public long deadLetteredCount() {
        return deadLettered.getCount();
    }
}
