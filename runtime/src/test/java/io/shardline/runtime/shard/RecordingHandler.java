package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A test handler that records what it handled, per shard, and runs a per-record behaviour first. */
public class RecordingHandler implements SyncHandler {

    /** What to do with a record before it counts as handled; throw to fail it. */
    @FunctionalInterface
    public interface Behaviour {
        void apply(StreamRecord record, ShardContext shard) throws Exception;
    }

    final Map<ShardId, List<String>> handled = new ConcurrentHashMap<>();
    final List<String> events = new CopyOnWriteArrayList<>();
    final AtomicInteger concurrent = new AtomicInteger();
    final AtomicInteger maxConcurrent = new AtomicInteger();
    volatile Behaviour behaviour = (r, s) -> { };

    @Override
    public void onAssigned(ShardContext shard) {
        events.add("assigned " + shard.fencingToken());
    }

    @Override
    public void onRevoked(ShardContext shard) {
        events.add("revoked " + shard.fencingToken());
    }

    @Override
    public void handleBatch(List<StreamRecord> records, ShardContext shard) throws Exception {
        maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
        try {
            SyncHandler.super.handleBatch(records, shard);
        } finally {
            concurrent.decrementAndGet();
        }
    }

    @Override
    public void handle(StreamRecord record, ShardContext shard) throws Exception {
        behaviour.apply(record, shard);
        handled.computeIfAbsent(record.shard(), k -> new CopyOnWriteArrayList<>()).add(record.entryId());
    }

    List<String> handled(ShardId shard) {
        return handled.getOrDefault(shard, List.of());
    }

    int total() {
        return handled.values().stream().mapToInt(List::size).sum();
    }
}
