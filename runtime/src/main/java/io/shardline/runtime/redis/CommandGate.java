package io.shardline.runtime.redis;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Lets at most {@code max} commands use a Redis client at once (the pooled Vert.x client in cluster mode, the
 * monitoring connection, the members' commands: {@code BoundedShardRedis}); the others wait in order (at most
 * {@code maxWaiting}, beyond which a command fails at once), and a waiting command is started on the context
 * that sent it. A command gives its place back when it ends, or after {@code releaseAfterMs} if it has not ended
 * by then (a node that hangs must not hold the places for ever).
 *
 * <p>Needed in Redis Cluster mode: the Vert.x cluster client takes, for every command, one connection from the
 * pool of every node at once. With more commands in flight than a node's pool holds, commands that hold the
 * last connections of some nodes wait for those of others, held by commands waiting in turn: the pools stay
 * taken for good and every later command times out (seen with two workers on a three-node cluster). With no
 * more commands in flight than the pool size, no command ever waits for a connection. Thread-safe.
 */
public final class CommandGate {

    private final Vertx vertx;
    private final int max;
    private final int maxWaiting;
    private final long releaseAfterMs;
    /** The settings that bound this gate, named when a command is refused. */
    private final String keys;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private int inFlight;
    private int mostInFlight;
    private long refused;

    CommandGate(Vertx vertx, int max, int maxWaiting, long releaseAfterMs) {
        this(vertx, max, maxWaiting, releaseAfterMs, "redis.pool.size, redis.pool.waiting");
    }

    /**
     * A gate of {@code max} places and {@code maxWaiting} waiting commands.
     *
     * @param keys the settings that bound it, named when a command is refused
     */
    public CommandGate(Vertx vertx, int max, int maxWaiting, long releaseAfterMs, String keys) {
        if (max <= 0 || maxWaiting < 0 || releaseAfterMs <= 0) {
            throw new IllegalArgumentException("command gate: max must be > 0 and maxWaiting >= 0, got " + max
                    + " and " + maxWaiting);
        }
        this.vertx = vertx;
        this.max = max;
        this.maxWaiting = maxWaiting;
        this.releaseAfterMs = releaseAfterMs;
        this.keys = keys;
    }

    /** Runs {@code command} now if fewer than {@code max} run, else when one ends. */
    public <T> Future<T> run(Supplier<Future<T>> command) {
        synchronized (this) {
            if (inFlight < max) {
                inFlight++;
                mostInFlight = Math.max(mostInFlight, inFlight);
            } else if (waiting.size() >= maxWaiting) {
                refused++;
                return Future.failedFuture(new RedisDisconnectedException("more than " + maxWaiting
                        + " Redis commands waiting for one of " + max + " places (" + keys + ")"));
            } else {
                Promise<T> later = Promise.promise();
                Context context = vertx.getOrCreateContext();
                waiting.addLast(() -> context.runOnContext(v -> start(command).onComplete(later)));
                return later.future();
            }
        }
        return start(command);
    }

    /** The most commands that run at once. */
    int max() {
        return max;
    }

    /** Commands running now. */
    public synchronized int inFlight() {
        return inFlight;
    }

    /** The most commands that ran at once so far (never more than {@code max}). */
    public synchronized int mostInFlight() {
        return mostInFlight;
    }

    /** Commands refused so far because {@code maxWaiting} others were waiting. */
    synchronized long refused() {
        return refused;
    }

    private <T> Future<T> start(Supplier<Future<T>> command) {
        Future<T> result;
        try {
            result = command.get();
        } catch (RuntimeException e) {
            result = Future.failedFuture(e);
        }
        AtomicBoolean released = new AtomicBoolean();
        long timer = vertx.setTimer(releaseAfterMs, id -> {
            if (released.compareAndSet(false, true)) {
                release();
            }
        });
        return result.andThen(ar -> {
            vertx.cancelTimer(timer);
            if (released.compareAndSet(false, true)) {
                release();
            }
        });
    }

    private void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.pollFirst();
            if (next == null) {
                inFlight--;
                return;
            }
        }
        next.run(); // the permit passes to the next command
    }
}
