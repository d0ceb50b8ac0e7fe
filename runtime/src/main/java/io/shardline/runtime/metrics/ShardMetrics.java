package io.shardline.runtime.metrics;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.shardline.api.handler.ShardId;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per listener and shard gauges sampled from Redis by {@link ListenerStatusSampler}: lag, pending count and
 * whether the shard has an owner, plus the number of owned shards per listener. Gauges hold the last
 * sampled value. Thread-safe.
 */
public final class ShardMetrics {

    /** Lag of one shard. */
    public static final MetricTemplate LAG = new MetricTemplate("shardline.shard.<listener>.{<stream>:<shard>}.lag",
            MetricType.GAUGE, "Entries of the shard not yet delivered to the listener's group (XINFO GROUPS lag).");
    /** Pending entries of one shard. */
    public static final MetricTemplate PENDING = new MetricTemplate(
            "shardline.shard.<listener>.{<stream>:<shard>}.pending", MetricType.GAUGE,
            "Entries of the shard delivered to the group and not yet acknowledged (XINFO GROUPS pending).");
    /** Whether one shard is owned. */
    public static final MetricTemplate OWNED = new MetricTemplate("shardline.shard.<listener>.{<stream>:<shard>}.owned",
            MetricType.GAUGE, "1 when the shard has an owner (the group's owner hash of the shard names a member), else 0.");
    /** Owned shards of a listener. */
    public static final MetricTemplate OWNED_SHARDS = new MetricTemplate("shardline.listener.<listener>.shards.owned",
            MetricType.GAUGE, "Shards of the listener that have an owner.");

    /** Every shard metric. */
    public static final List<MetricTemplate> TEMPLATES = List.of(LAG, PENDING, OWNED, OWNED_SHARDS);

    private final MetricRegistry registry;
    private final Map<String, AtomicLong> values = new ConcurrentHashMap<>();

    /** Gauges registered in {@code registry} on first use. */
    public ShardMetrics(MetricRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** Records the sampled state of {@code shard} of {@code listener}. */
    public void shard(String listener, ShardId shard, long lag, long pending, boolean owned) {
        String stream = shard.stream();
        String index = Integer.toString(shard.index());
        set(LAG.name(listener, stream, index), lag);
        set(PENDING.name(listener, stream, index), pending);
        set(OWNED.name(listener, stream, index), owned ? 1 : 0);
    }

    /** Records the number of owned shards of {@code listener}. */
    public void ownedShards(String listener, long count) {
        set(OWNED_SHARDS.name(listener), count);
    }

    /** Removes every gauge of {@code listener} (it was deleted). */
    public void forget(String listener) {
        String shardPrefix = "shardline.shard." + listener + ".{";
        String ownedName = OWNED_SHARDS.name(listener);
        values.keySet().removeIf(name -> {
            boolean mine = name.startsWith(shardPrefix) || name.equals(ownedName);
            if (mine) {
                registry.remove(name);
            }
            return mine;
        });
    }

    private void set(String name, long value) {
        values.computeIfAbsent(name, n -> {
            AtomicLong holder = new AtomicLong();
            registry.gauge(n, () -> (Gauge<Long>) holder::get);
            return holder;
        }).set(value);
    }
}
