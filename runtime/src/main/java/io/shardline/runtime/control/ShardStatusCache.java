package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.ShardStatus;
import io.vertx.core.Future;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Shard status reads ({@link ShardStatusReader}) shared by everyone who asks for the same shards of a group within
 * {@link #MAX_AGE_MS}: a read answered at most that long ago is served again, and a read asked for while the same
 * one runs waits for it instead of starting another. So the console's refreshes, several clients polling and the
 * group listing together read a listener's shards from Redis at most once per {@link #MAX_AGE_MS}, and never
 * twice at the same time. Writes that change what a read shows (offsets, target states, restarts) {@link #clear()}
 * it. Entries not asked for during {@link #EVICT_AFTER_MS} are dropped. Thread-safe.
 */
final class ShardStatusCache {

    /** How old a served read may be. */
    static final long MAX_AGE_MS = 1_000;

    /** Entries not asked for during this long are dropped. */
    static final long EVICT_AFTER_MS = 60_000;

    private final ShardStatusReader reader;
    private final LongSupplier monotonicMs;
    private final Map<Key, Entry> entries = new HashMap<>();

    private record Key(String group, List<ShardId> shards) {
    }

    private static final class Entry {
        private Future<List<ShardStatus>> read;
        private long startedMs;
        private long usedMs;
    }

    /**
     * A cache over {@code reader}.
     *
     * @param monotonicMs a monotonic clock in milliseconds
     */
    ShardStatusCache(ShardStatusReader reader, LongSupplier monotonicMs) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.monotonicMs = Objects.requireNonNull(monotonicMs, "monotonicMs");
    }

    /** The statuses of {@code shards} of {@code group}, paused ones not marked (see {@link #withPaused}). */
    synchronized Future<List<ShardStatus>> read(String group, List<ShardId> shards) {
        long now = monotonicMs.getAsLong();
        entries.values().removeIf(e -> now - e.usedMs > EVICT_AFTER_MS && e.read.isComplete());
        Key key = new Key(group, List.copyOf(shards));
        Entry entry = entries.get(key);
        if (entry == null || entry.read.failed() || (entry.read.succeeded() && now - entry.startedMs > MAX_AGE_MS)) {
            entry = entry == null ? new Entry() : entry;
            entry.read = reader.read(group, key.shards(), Set.of());
            entry.startedMs = now;
            entries.put(key, entry);
        }
        entry.usedMs = now;
        return entry.read;
    }

    /** Forgets every read: the next ones go to Redis. */
    synchronized void clear() {
        entries.clear();
    }

    /** Entries held now. */
    synchronized int size() {
        return entries.size();
    }

    /** {@code statuses} with the shards in {@code paused} marked {@link ListenerState#PAUSED}. */
    static List<ShardStatus> withPaused(List<ShardStatus> statuses, Set<ShardId> paused) {
        if (paused.isEmpty()) {
            return statuses;
        }
        return statuses.stream().map(s -> paused.contains(new ShardId(s.stream(), s.shard()))
                ? s.withState(ListenerState.PAUSED)
                : s).toList();
    }
}
