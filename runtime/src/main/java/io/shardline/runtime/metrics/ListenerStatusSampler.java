package io.shardline.runtime.metrics;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.rest.ControlPlane;
import io.shardline.runtime.rest.entity.ListenerStatus;
import io.shardline.runtime.rest.entity.ShardStatus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples every listener's shard statuses (owner, lag, pending: one {@code HGETALL} and one
 * {@code XINFO GROUPS} per shard) into {@link ShardMetrics} every interval, while {@code active} says so
 * (the worker passes "I am the leader", so one worker exports the cluster-wide lag series instead of every
 * worker exporting the same values). At most one sample runs at a time. Thread-safe.
 */
public final class ListenerStatusSampler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerStatusSampler.class);

    private final Vertx vertx;
    private final ControlPlane plane;
    private final ShardMetrics metrics;
    private final BooleanSupplier active;
    private final Set<String> known = new HashSet<>();
    private long timer = -1;
    private boolean running;

    /**
     * A sampler.
     *
     * @param active whether this worker samples now (e.g. it is the leader)
     */
    public ListenerStatusSampler(Vertx vertx, ControlPlane plane, ShardMetrics metrics, BooleanSupplier active) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.plane = Objects.requireNonNull(plane, "plane");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.active = Objects.requireNonNull(active, "active");
    }

    /** Samples every {@code intervalMs}, starting after one interval. */
    public synchronized void start(long intervalMs) {
        if (timer < 0) {
            timer = vertx.setPeriodic(intervalMs, id -> {
                if (active.getAsBoolean()) {
                    sample();
                }
            });
        }
    }

    /** One sample now (skipped when one is still running); completes when the gauges are updated. */
    public Future<Void> sample() {
        synchronized (this) {
            if (running) {
                return Future.succeededFuture();
            }
            running = true;
        }
        return plane.listenerStatuses()
                .onSuccess(this::record)
                .onFailure(e -> LOG.warn("Could not sample listener statuses: {}", e.getMessage()))
                .<Void>mapEmpty()
                .recover(e -> Future.succeededFuture())
                .eventually(() -> {
                    synchronized (this) {
                        running = false;
                    }
                    return Future.succeededFuture();
                });
    }

    private synchronized void record(Map<String, ListenerStatus> statuses) {
        for (String gone : known) {
            if (!statuses.containsKey(gone)) {
                metrics.forget(gone);
            }
        }
        known.clear();
        known.addAll(statuses.keySet());
        statuses.forEach((name, status) -> {
            long owned = 0;
            for (ShardStatus shard : status.shards()) {
                boolean isOwned = shard.owner() != null;
                owned += isOwned ? 1 : 0;
                metrics.shard(name, new ShardId(shard.stream(), shard.shard()), shard.lag() == null ? 0 : shard.lag(),
                        shard.pending(), isOwned);
            }
            metrics.ownedShards(name, owned);
        });
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
