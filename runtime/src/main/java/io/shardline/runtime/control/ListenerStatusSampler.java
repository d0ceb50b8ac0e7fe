package io.shardline.runtime.control;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import io.shardline.runtime.metrics.ConsumptionMetricNames;
import io.shardline.runtime.metrics.ExportedName;
import io.shardline.runtime.metrics.ListenerHistory;
import io.shardline.runtime.metrics.ShardMetrics;
import io.shardline.runtime.rest.entity.ListenerStatus;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.ShardStatus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples every listener's shard statuses (owner, lag, pending, cutover wait: one read-only script call per batch of
 * shards, {@link ShardStatusReader}) every interval on every worker. Each worker
 * reads and keeps only the shards its own members own (the leader also the unowned ones,
 * {@link ControlPlane#sampledStatuses}) in {@link ShardMetrics}, so every shard's lag series comes from one worker,
 * the one that owns it. The reads go through the monitoring connection ({@code redis.monitoring.in.flight}), never
 * the pool of the coordinator's and consumers' commands; and a sample that took {@code d} ms is followed by the
 * next one no sooner than {@link #DUTY_FACTOR} × {@code d} later, so sampling a very large listener keeps that
 * connection busy at most one tenth of the time (docs/reliability.md, "Overload"). It adds this worker's share (records handled and dead-lettered
 * by its members, lag of those shards) to the {@link ListenerHistory} the console charts. Listeners that are
 * gone lose every series labelled with them, and (on the leader) groups no listener uses lose theirs. At most one sample runs at a time. Thread-safe.
 */
public final class ListenerStatusSampler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerStatusSampler.class);

    private final Vertx vertx;
    private final ControlPlane plane;
    private final String workerId;
    private final MetricRegistry registry;
    private final ShardMetrics metrics;
    private final ListenerHistory history;
    private final BooleanSupplier leader;
    private final LongSupplier wallClockMs;
    private final Set<String> known = new HashSet<>();
    private long timer = -1;
    private boolean running;
    /** When the next sample may start (wall clock); later than the next tick after a long sample. */
    private long notBeforeMs;
    private long samples;
    private long lastDurationMs;

    /** A sample that took {@code d} ms is followed by the next one no sooner than this many times {@code d} later. */
    public static final int DUTY_FACTOR = 10;

    /**
     * A sampler.
     *
     * @param workerId this worker, whose members' shards it exports
     * @param leader whether this worker leads now (it also exports the unowned shards)
     * @param wallClockMs the time of a sample (epoch milliseconds)
     */
    public ListenerStatusSampler(Vertx vertx, ControlPlane plane, String workerId, MetricRegistry registry,
                                 ShardMetrics metrics, ListenerHistory history, BooleanSupplier leader,
                                 LongSupplier wallClockMs) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.plane = Objects.requireNonNull(plane, "plane");
        this.workerId = Objects.requireNonNull(workerId, "workerId");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.history = Objects.requireNonNull(history, "history");
        this.leader = Objects.requireNonNull(leader, "leader");
        this.wallClockMs = Objects.requireNonNull(wallClockMs, "wallClockMs");
    }

    /** Samples every {@code intervalMs}, starting after one interval. */
    public synchronized void start(long intervalMs) {
        if (timer < 0) {
            timer = vertx.setPeriodic(intervalMs, id -> sample());
        }
    }

    /**
     * One sample now (skipped when one is still running or the last one was long, see {@link #DUTY_FACTOR});
     * completes when the gauges are updated.
     */
    public Future<Void> sample() {
        long startMs = wallClockMs.getAsLong();
        synchronized (this) {
            if (running || startMs < notBeforeMs) {
                return Future.succeededFuture();
            }
            running = true;
        }
        // Recording a large listener (its gauges, the registry sweep) takes a while: off the event loop, whose
        // other work (the consumers' reads) must not wait for it.
        return plane.sampledStatuses(workerId, leader.getAsBoolean())
                .compose(statuses -> vertx.executeBlocking(() -> {
                    record(statuses);
                    return null;
                }, false))
                .onFailure(e -> LOG.warn("Could not sample listener statuses: {}", e.getMessage()))
                .<Void>mapEmpty()
                .recover(e -> Future.succeededFuture())
                .eventually(() -> {
                    long tookMs = Math.max(0, wallClockMs.getAsLong() - startMs);
                    synchronized (this) {
                        running = false;
                        samples++;
                        lastDurationMs = tookMs;
                        notBeforeMs = startMs + DUTY_FACTOR * tookMs;
                    }
                    return Future.succeededFuture();
                });
    }

    /** Samples completed so far. */
    public synchronized long samples() {
        return samples;
    }

    /** How long the last sample took (ms). */
    public synchronized long lastDurationMs() {
        return lastDurationMs;
    }

    private synchronized void record(Map<String, ListenerStatus> statuses) {
        long nowMs = wallClockMs.getAsLong();
        for (String gone : known) {
            if (!statuses.containsKey(gone)) {
                metrics.forget(gone);
            }
        }
        known.clear();
        known.addAll(statuses.keySet());
        history.retain(statuses.keySet());
        // Series of deleted listeners (consumption, handler and shard metrics) and, on the leader, of groups no
        // listener uses any more go with them.
        ExportedName.removeUnless(registry, "listener", statuses.keySet());
        boolean leads = leader.getAsBoolean();
        if (leads) {
            ExportedName.removeUnless(registry, "group", statuses.values().stream().map(ListenerStatus::group)
                    .collect(Collectors.toSet()));
        }
        statuses.forEach((name, status) -> {
            Set<String> local = status.members().stream().filter(m -> m.workerId().equals(workerId))
                    .map(MemberStatus::id).collect(Collectors.toSet());
            List<ShardStatus> exported = status.shards().stream()
                    .filter(s -> s.owner() == null ? leads : local.contains(s.owner())).toList();
            long ownedHere = exported.stream().filter(s -> s.owner() != null).count();
            metrics.update(name, exported, ownedHere);
            long lag = exported.stream().mapToLong(s -> s.lag() == null ? 0 : s.lag()).sum();
            history.record(name, nowMs, count(ConsumptionMetricNames.HANDLED.name(name)),
                    count(ConsumptionMetricNames.DEAD_LETTERED.name(name)), lag);
        });
    }

    private long count(String meter) {
        Meter m = registry.getMeters().get(meter);
        return m == null ? 0 : m.getCount();
    }

    /** Stops sampling. */
    @Override
    public synchronized void close() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }
}
