package io.shardline.benchmarks.consumption;

import io.shardline.api.handler.ShardId;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Writes records at a steady rate round-robin over shards, each with {@code t} = System.nanoTime() when
 * its XADD is issued (so the consumer in the same JVM measures end-to-end latency). Issues the XADDs due
 * every half millisecond from a loop on the calling thread ({@link #run}, {@link #runWhile}) or on a thread of its own
 * ({@link #start}).
 */
final class SteadyProducer {

    private final BenchRedis b;
    private final io.vertx.redis.client.Redis client;
    private final io.vertx.redis.client.RedisConnection connection;
    /**
     * The one context the XADD batches are sent from: a batch sent from this non-Vert.x thread would make the client
     * create a new context per batch (2,000 a second: a seventh of what the latency bench allocated) and run its
     * completion on whichever event loop came next.
     */
    private final io.vertx.core.Context context;
    private final List<ShardId> shards;
    private final long ratePerSecond;
    private final AtomicLong sent = new AtomicLong();
    private long sentAtReset;
    private int next;
    private volatile boolean stopped;
    private Thread thread;

    SteadyProducer(BenchRedis b, List<ShardId> shards, long ratePerSecond) {
        this.b = b;
        this.client = io.vertx.redis.client.Redis.createClient(b.vertx,
                new io.vertx.redis.client.RedisOptions().setConnectionString(b.server.uri()).setMaxPoolSize(4).setMaxPoolWaiting(10_000)
                        .setMaxWaitingHandlers(1_000_000)); // on a loaded machine the batches every 0.5 ms queue up
        this.context = b.vertx.getOrCreateContext();
        io.vertx.core.Promise<io.vertx.redis.client.RedisConnection> connected = io.vertx.core.Promise.promise();
        context.runOnContext(v -> client.connect().onComplete(connected));
        this.connection = BenchRedis.await(connected.future());
        this.shards = shards;
        this.ratePerSecond = ratePerSecond;
    }

    /** Produces for {@code millis}; resets the count used by {@link #sentSinceReset()} first. */
    void run(long millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        runWhile(() -> System.nanoTime() < end);
    }

    /** Produces while {@code condition} holds (checked every millisecond). */
    void runWhile(BooleanSupplier condition) {
        sentAtReset = sent.get();
        long start = System.nanoTime();
        long issued = 0;
        while (condition.getAsBoolean()) {
            long due = (System.nanoTime() - start) * ratePerSecond / 1_000_000_000L;
            if (issued < due) {
                java.util.List<Request> batch = new java.util.ArrayList<>();
                for (; issued < due; issued++) {
                    ShardId s = shards.get(next++ % shards.size());
                    batch.add(Request.cmd(Command.XADD).arg(s.key()).arg("*").arg("t").arg(System.nanoTime()).arg("p").arg("x"));
                }
                int n = batch.size();
                context.runOnContext(v -> connection.batch(batch).onSuccess(r -> sent.addAndGet(n))
                        .onFailure(e -> System.err.println("producer batch failed: " + e)));
            }
            java.util.concurrent.locks.LockSupport.parkNanos(500_000); // pacing of the producer loop
        }
        long expected = sentAtReset + issued;
        BenchRedis.waitUntil(30_000, () -> sent.get() >= expected);
    }

    /** Produces on a thread of its own until {@link #stop()}. */
    void start() {
        stopped = false;
        thread = new Thread(() -> runWhile(() -> !stopped), "steady-producer");
        thread.start();
    }

    /** Stops the producer started by {@link #start()} and waits until Redis acknowledged what it sent. */
    void stop() {
        stopped = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Closes the producer's connection and client (after {@link #run} or {@link #stop}). */
    void close() {
        connection.close();
        client.close();
    }

    /** Records acknowledged by Redis so far. */
    long sent() {
        return sent.get();
    }

    /** Records acknowledged by Redis since the last run started. */
    long sentSinceReset() {
        return sent.get() - sentAtReset;
    }
}
