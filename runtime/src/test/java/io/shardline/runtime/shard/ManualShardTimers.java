package io.shardline.runtime.shard;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** {@link ShardTimers} on a manual clock: {@link #advanceTo} returns the timers due, in order. Not thread-safe. */
final class ManualShardTimers implements ShardTimers {

    /** A timer set and not yet fired or cancelled. */
    record Timer(long id, long dueMs, OwnedShard shard, Kind kind) {
    }

    private final TreeMap<Long, Timer> byId = new TreeMap<>();
    private long nextId;
    private long nowMs;

    @Override
    public long set(long delayMs, OwnedShard shard, Kind kind) {
        long id = nextId++;
        byId.put(id, new Timer(id, nowMs + Math.max(1, delayMs), shard, kind));
        return id;
    }

    @Override
    public void cancel(long id) {
        byId.remove(id);
    }

    /** The clock now. */
    long nowMs() {
        return nowMs;
    }

    /** The earliest due time of a pending timer, or {@code Long.MAX_VALUE}. */
    long nextDueMs() {
        return byId.values().stream().mapToLong(Timer::dueMs).min().orElse(Long.MAX_VALUE);
    }

    /** Moves the clock to {@code ms} and returns the timers due by then (removed), earliest first. */
    List<Timer> advanceTo(long ms) {
        nowMs = Math.max(nowMs, ms);
        List<Timer> due = new ArrayList<>();
        byId.values().stream().filter(t -> t.dueMs() <= nowMs)
                .sorted((a, b) -> a.dueMs() != b.dueMs() ? Long.compare(a.dueMs(), b.dueMs()) : Long.compare(a.id(), b.id()))
                .forEach(due::add);
        due.forEach(t -> byId.remove(t.id()));
        return due;
    }

    /** Pending timers (for assertions). */
    List<Timer> pending() {
        return new ArrayList<>(byId.values());
    }
}
