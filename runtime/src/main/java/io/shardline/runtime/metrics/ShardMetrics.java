package io.shardline.runtime.metrics;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.MetricRegistryListener;
import io.shardline.runtime.rest.entity.ShardStatus;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Per listener and shard gauges sampled from Redis by {@link io.shardline.runtime.control.ListenerStatusSampler}: lag,
 * pending count, how long the group has waited at a resharding cutover and whether the shard has an owner (for at most
 * {@link #MAX_SHARD_SERIES} shards per listener), plus the number of a
 * listener's shards owned by this worker and its exported shards' lag and pending entries summed. Each worker
 * exports the shards it owns (the leader also the unowned ones), so a sum over workers counts every shard
 * once. Gauges hold the last sampled value. Thread-safe.
 */
public final class ShardMetrics {

    /** Lag of one shard. */
    public static final MetricTemplate LAG = new MetricTemplate("shardline.shard.<listener>.{<stream>:<shard>}.lag",
            MetricType.GAUGE, "Entries of the shard not yet delivered to the listener's group (XINFO GROUPS lag).");
    /** Pending entries of one shard. */
    public static final MetricTemplate PENDING = new MetricTemplate(
            "shardline.shard.<listener>.{<stream>:<shard>}.pending", MetricType.GAUGE,
            "Entries of the shard delivered to the group and not yet acknowledged (XINFO GROUPS pending).");
    /** Age of the oldest pending entry of one shard. */
    public static final MetricTemplate OLDEST_PENDING = new MetricTemplate(
            "shardline.shard.<listener>.{<stream>:<shard>}.oldest-pending-seconds", MetricType.GAUGE,
            "Seconds since the shard's oldest pending entry was delivered to its consumer (XPENDING idle time); 0 when "
                    + "nothing is pending. A value that keeps growing means a handler is stuck on that entry.");
    /** Whether one shard is owned. */
    public static final MetricTemplate OWNED = new MetricTemplate("shardline.shard.<listener>.{<stream>:<shard>}.owned",
            MetricType.GAUGE, "1 when the shard has an owner (the group's owner hash of the shard names a member), else 0.");
    /** How long one shard has waited at a resharding cutover. */
    public static final MetricTemplate CUTOVER_WAIT = new MetricTemplate(
            "shardline.shard.<listener>.{<stream>:<shard>}.cutover-wait-seconds", MetricType.GAUGE,
            "Seconds the listener's group has waited at a resharding cutover of the shard (read everything up to it, "
                    + "barrier not released yet; the routing hash's waiting:<group> field); 0 when not waiting.");
    /** Owned shards of a listener. */
    public static final MetricTemplate OWNED_SHARDS = new MetricTemplate("shardline.listener.<listener>.shards.owned",
            MetricType.GAUGE, "Shards of the listener that have an owner.");

    /** Lag of the shards of a listener this worker exports. */
    public static final MetricTemplate LISTENER_LAG = new MetricTemplate("shardline.listener.<listener>.lag",
            MetricType.GAUGE, "Lag of the listener's shards this worker exports (those its members own; on the leader "
                    + "also the unowned ones), summed: the sum over workers is the listener's lag.");
    /** Pending entries of the shards of a listener this worker exports. */
    public static final MetricTemplate LISTENER_PENDING = new MetricTemplate("shardline.listener.<listener>.pending",
            MetricType.GAUGE, "Pending entries of the listener's shards this worker exports, summed.");

    /**
     * The most shards of one listener with series of their own on one worker: those with the most lag, then the most
     * pending entries, then in shard order. A listener with 100,000 shards would otherwise register 400,000 gauges
     * (and as many JMX beans) on the leader; its totals are in {@link #LISTENER_LAG} and {@link #LISTENER_PENDING}.
     */
    public static final int MAX_SHARD_SERIES = 1_000;

    /** Every shard metric. */
    public static final List<MetricTemplate> TEMPLATES = List.of(LAG, PENDING, OLDEST_PENDING, OWNED, CUTOVER_WAIT,
            OWNED_SHARDS, LISTENER_LAG, LISTENER_PENDING);

    private final MetricRegistry registry;
    private final LongSupplier clockMs;
    private final Map<String, AtomicLong> values = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> byListener = new ConcurrentHashMap<>();

    /** Gauges registered in {@code registry} on first use. */
    public ShardMetrics(MetricRegistry registry) {
        this(registry, System::currentTimeMillis);
    }

    /** Gauges registered in {@code registry} on first use; {@code clockMs} (wall clock) ages the cutover waits. */
    public ShardMetrics(MetricRegistry registry, LongSupplier clockMs) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
        registry.addListener(new MetricRegistryListener.Base() {
            @Override
            public void onGaugeRemoved(String name) {
                values.remove(name);
            }
        });
    }

    /**
     * Records the sampled state of the shards of {@code listener} this worker exports, and the number of its
     * shards owned here; the series of shards it exported before and no longer does (another worker owns them
     * now) are removed, so each shard's series comes from one worker.
     */
    public synchronized void update(String listener, List<ShardStatus> exported, long ownedHere) {
        Set<String> now = new HashSet<>();
        long lag = 0;
        long pending = 0;
        for (ShardStatus shard : exported) {
            lag += shard.lag() == null ? 0 : shard.lag();
            pending += shard.pending();
        }
        now.add(set(LISTENER_LAG.name(listener), lag));
        now.add(set(LISTENER_PENDING.name(listener), pending));
        for (ShardStatus shard : withSeries(exported)) {
            String stream = shard.stream();
            String index = Integer.toString(shard.shard());
            now.add(set(LAG.name(listener, stream, index), shard.lag() == null ? 0 : shard.lag()));
            now.add(set(PENDING.name(listener, stream, index), shard.pending()));
            now.add(setMillisAsSeconds(OLDEST_PENDING.name(listener, stream, index),
                    shard.oldestPendingMs() == null ? 0 : shard.oldestPendingMs()));
            now.add(set(OWNED.name(listener, stream, index), shard.owner() != null ? 1 : 0));
            now.add(setMillisAsSeconds(CUTOVER_WAIT.name(listener, stream, index), shard.cutoverSinceMs() == null ? 0
                    : Math.max(0, clockMs.getAsLong() - shard.cutoverSinceMs())));
        }
        now.add(set(OWNED_SHARDS.name(listener), ownedHere));
        Set<String> before = byListener.put(listener, now);
        if (before != null) {
            before.stream().filter(name -> !now.contains(name)).forEach(this::remove);
        }
    }

    /** The shards that get series of their own: all of them, or the {@link #MAX_SHARD_SERIES} that matter most. */
    private static List<ShardStatus> withSeries(List<ShardStatus> exported) {
        if (exported.size() <= MAX_SHARD_SERIES) {
            return exported;
        }
        return exported.stream()
                .sorted(Comparator.comparingLong((ShardStatus s) -> s.lag() == null ? 0 : s.lag()).reversed()
                        .thenComparing(Comparator.comparingLong(ShardStatus::pending).reversed()))
                .limit(MAX_SHARD_SERIES)
                .toList();
    }

    /** Removes every gauge of {@code listener} (it was deleted). */
    public synchronized void forget(String listener) {
        Set<String> names = byListener.remove(listener);
        if (names != null) {
            names.forEach(this::remove);
        }
    }

    private void remove(String name) {
        values.remove(name);
        registry.remove(name);
    }

    private String setMillisAsSeconds(String name, long millis) {
        values.computeIfAbsent(name, n -> {
            AtomicLong holder = new AtomicLong();
            registry.gauge(n, () -> (Gauge<Double>) () -> holder.get() / 1000.0);
            return holder;
        }).set(millis);
        return name;
    }

    private String set(String name, long value) {
        values.computeIfAbsent(name, n -> {
            AtomicLong holder = new AtomicLong();
            registry.gauge(n, () -> (Gauge<Long>) holder::get);
            return holder;
        }).set(value);
        return name;
    }
}
