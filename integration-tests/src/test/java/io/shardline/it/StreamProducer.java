package io.shardline.it;

import io.shardline.api.handler.ShardId;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Writes entries to every shard of a stream, one shard after the other, one entry every {@code periodMs}, on
 * its own thread and connection, remembering per shard the time (the entry id's milliseconds, the Redis
 * server clock of this machine) of the last entry written.
 */
final class StreamProducer implements AutoCloseable {

    private final Thread thread;
    private final AtomicLongArray lastMs;
    private final AtomicLong count = new AtomicLong();
    private volatile boolean running = true;
    private volatile Throwable failure;

    private StreamProducer(RedisServer redis, String stream, int shards, long periodMs) {
        this.lastMs = new AtomicLongArray(shards);
        this.thread = new Thread(() -> {
            try (RespProbe probe = redis.probe()) {
                long n = 0;
                while (running) {
                    int shard = (int) (n % shards);
                    Object id = probe.call("XADD", new ShardId(stream, shard).key(), "*", "n", Long.toString(n));
                    lastMs.set(shard, ClusterProbe.idMs(id));
                    count.incrementAndGet();
                    n++;
                    WorkerProcess.pause(periodMs);
                }
            } catch (IOException | RuntimeException e) {
                failure = e;
            }
        }, "stream-producer-" + stream);
        thread.setDaemon(true);
    }

    /** Starts producing. */
    static StreamProducer start(RedisServer redis, String stream, int shards, long periodMs) {
        StreamProducer p = new StreamProducer(redis, stream, shards, periodMs);
        p.thread.start();
        return p;
    }

    /** Writes {@code perShard} entries to each shard now. */
    static void produce(RedisServer redis, String stream, int shards, int perShard) throws IOException {
        try (RespProbe probe = redis.probe()) {
            for (int i = 0; i < perShard * shards; i++) {
                probe.call("XADD", new ShardId(stream, i % shards).key(), "*", "n", Integer.toString(i));
            }
        }
    }

    /** Writes {@code perShard} entries to each shard now, shard after shard, each on the node that serves it. */
    static void produce(RedisNodes redis, String stream, int shards, int perShard) throws IOException {
        for (int shard = 0; shard < shards; shard++) {
            String key = new ShardId(stream, shard).key();
            try (RespProbe probe = redis.probeFor(key)) {
                for (int i = 0; i < perShard; i++) {
                    probe.call("XADD", key, "*", "n", Integer.toString(i));
                }
            }
        }
    }

    /** Waits until every shard has an entry written after {@code ms}. */
    void awaitProducedAfter(long ms, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (failure != null) {
                throw new AssertionError("producer failed", failure);
            }
            boolean all = true;
            for (int i = 0; i < lastMs.length(); i++) {
                all &= lastMs.get(i) > ms;
            }
            if (all) {
                return;
            }
            WorkerProcess.pause(20);
        }
        throw new AssertionError("producer did not write past " + ms + " within " + timeout);
    }

    /** Stops and returns the number of entries written. */
    long stop() {
        running = false;
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw new AssertionError("producer failed", failure);
        }
        return count.get();
    }

    @Override
    public void close() {
        running = false;
    }
}
