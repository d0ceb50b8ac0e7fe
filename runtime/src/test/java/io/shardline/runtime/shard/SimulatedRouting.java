package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardId;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The routing hashes of {@link SimulatedShards}' shards for its one group (docs/protocol.md section 8b): per shard,
 * the cutover of every epoch it was flipped to (as an entry number; 0 for {@code 0-0}) and the group's released
 * epoch. Flips, releases and the removal of a finished change's fields come at random while faults are on; at the
 * end every barrier is released. Not thread-safe.
 */
final class SimulatedRouting {

    /** The smallest unreleased cutover of a shard: reads of new entries stop at {@code cutover}. */
    record Bound(long epoch, long cutover) {
    }

    private static final class Routing {
        final TreeMap<Long, Long> cutovers = new TreeMap<>();
        long released;
    }

    private final Map<ShardId, Routing> routing = new HashMap<>();
    private long epoch = 1;

    private Routing of(ShardId shard) {
        return routing.computeIfAbsent(shard, k -> new Routing());
    }

    /** A flip of {@code shard} to the next routing epoch, whose cutover is entry {@code lastEntry} (0: none yet). */
    void flip(ShardId shard, long lastEntry) {
        of(shard).cutovers.put(++epoch, lastEntry);
    }

    /**
     * The leader releases the group's barrier on {@code shard} at its smallest unreleased epoch; sometimes (a finished
     * change) the released epochs' fields are removed as well.
     */
    void release(ShardId shard, Random rnd) {
        Routing r = of(shard);
        Long next = r.cutovers.higherKey(r.released);
        if (next == null) {
            return;
        }
        r.released = next;
        if (rnd.nextBoolean()) {
            r.cutovers.headMap(next, true).clear();
            if (rnd.nextBoolean()) {
                r.released = 0; // released:<group> removed with the finished change's fields
            }
        }
    }

    /** Releases every barrier of every shard (the change finished). */
    void releaseAll() {
        routing.values().forEach(r -> r.released = Math.max(r.released, r.cutovers.isEmpty() ? 0 : r.cutovers.lastKey()));
    }

    /** The cutover the group's reads of new entries on {@code shard} stop at, or null when none. */
    Bound bound(ShardId shard) {
        Routing r = of(shard);
        Map.Entry<Long, Long> next = r.cutovers.higherEntry(r.released);
        return next == null ? null : new Bound(next.getKey(), next.getValue());
    }

    /** What the driver's poll answers: the barrier at {@code epoch} is released, or its cutover field is gone. */
    boolean released(ShardId shard, long epoch) {
        Routing r = of(shard);
        return r.released >= epoch || !r.cutovers.containsKey(epoch);
    }
}
