package io.shardline.runtime.metrics;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The metrics of one member (its heartbeat loop calls these): heartbeat round-trip latency, current
 * member epoch, rebalances it took part in (assignment changes it received). Thread-safe.
 */
public final class MemberMetrics {

    /** Heartbeat round trip. */
    public static final MetricTemplate HEARTBEAT_LATENCY = new MetricTemplate(
            "shardline.member.<member>.heartbeat.latency", MetricType.TIMER,
            "Heartbeat round trip from the member to the coordinator.");
    /** Member epoch. */
    public static final MetricTemplate EPOCH = new MetricTemplate("shardline.member.<member>.epoch", MetricType.GAUGE,
            "The member's current member epoch (0 before it joined).");
    /** Rebalances. */
    public static final MetricTemplate REBALANCES = new MetricTemplate("shardline.member.<member>.rebalances",
            MetricType.METER, "Assignment changes the member received (shards to revoke or to take).");
    /** Heartbeat failures. */
    public static final MetricTemplate HEARTBEAT_FAILURES = new MetricTemplate(
            "shardline.member.<member>.heartbeat.failures", MetricType.METER,
            "Heartbeats that failed or timed out (the member fences itself when its lease runs out).");

    /** Every member metric. */
    public static final List<MetricTemplate> TEMPLATES = List.of(HEARTBEAT_LATENCY, EPOCH, REBALANCES,
            HEARTBEAT_FAILURES);

    private final MetricRegistry registry;
    private final String member;
    private final Timer latency;
    private final Meter rebalances;
    private final Meter failures;
    private final AtomicLong epoch = new AtomicLong();

    /** Registers the metrics of {@code member} in {@code registry}. */
    public MemberMetrics(MetricRegistry registry, String member) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.member = Objects.requireNonNull(member, "member");
        latency = registry.timer(HEARTBEAT_LATENCY.name(member), SummingTimer::new);
        rebalances = registry.meter(REBALANCES.name(member));
        failures = registry.meter(HEARTBEAT_FAILURES.name(member));
        registry.gauge(EPOCH.name(member), () -> (Gauge<Long>) epoch::get);
    }

    /** A heartbeat answered after {@code nanos}. */
    public void heartbeat(long nanos) {
        latency.update(nanos, TimeUnit.NANOSECONDS);
    }

    /** A heartbeat failed. */
    public void heartbeatFailed() {
        failures.mark();
    }

    /** The member epoch is now {@code memberEpoch}. */
    public void epoch(int memberEpoch) {
        epoch.set(memberEpoch);
    }

    /** The member received a new assignment. */
    public void rebalanced() {
        rebalances.mark();
    }

    /** Removes the member's metrics (it left). */
    public void close() {
        for (MetricTemplate t : TEMPLATES) {
            registry.remove(t.name(member));
        }
    }
}
