package io.shardline.benchmarks.consumption;

import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A no-op handler that records, for every record of a measured shard carrying {@code t} = System.nanoTime() at its
 * XADD ({@link SteadyProducer}), the XADD time, the latency (handler call - XADD issue) and the shard number; records
 * of other shards (or with {@code t} = 0, as fills write them) are only counted. Thread-safe (handler threads call
 * it concurrently).
 */
final class LatencyRecorder implements SyncHandler {

    private final long[] sentAt;
    private final long[] latency;
    private final int[] shard;
    private final Predicate<ShardId> measured;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger written = new AtomicInteger();
    private final AtomicLong others = new AtomicLong();

    LatencyRecorder(int capacity, Predicate<ShardId> measured) {
        this.sentAt = new long[capacity];
        this.latency = new long[capacity];
        this.shard = new int[capacity];
        this.measured = measured;
    }

    @Override
    public void handle(StreamRecord record, ShardContext context) {
        record(record.shard(), record.field("t"));
    }

    /** Records one record of {@code shard} whose {@code t} field is {@code t} (a peer's consumer calls this). */
    void record(ShardId recordShard, String t) {
        record(recordShard, measured.test(recordShard) && t != null ? Long.parseLong(t) : 0);
    }

    private void record(ShardId recordShard, long t) {
        long now = System.nanoTime();
        if (t == 0) {
            others.incrementAndGet();
            return;
        }
        int i = next.getAndIncrement();
        if (i < sentAt.length) {
            sentAt[i] = t;
            latency[i] = now - t;
            shard[i] = recordShard.index();
        }
        written.incrementAndGet();
    }

    /** Forgets the samples so far (call while nothing is being handled, or accept a few stray samples). */
    void reset() {
        next.set(0);
        written.set(0);
    }

    /** Measured records handled since the last reset. */
    int count() {
        return written.get();
    }

    /** Records of unmeasured shards (or fill records) handled so far. */
    long others() {
        return others.get();
    }

    /** The samples since the last reset: XADD time, latency (ns) and shard number of each, in handling order. */
    record Samples(long[] sentAt, long[] latency, int[] shard) {
    }

    /** A copy of the samples since the last reset. */
    Samples samples() {
        int n = Math.min(written.get(), sentAt.length);
        return new Samples(Arrays.copyOf(sentAt, n), Arrays.copyOf(latency, n), Arrays.copyOf(shard, n));
    }

    /** All sorted latencies (ns) since the last reset. */
    long[] latencies() {
        long[] s = Arrays.copyOf(latency, Math.min(written.get(), latency.length));
        Arrays.sort(s);
        return s;
    }
}
