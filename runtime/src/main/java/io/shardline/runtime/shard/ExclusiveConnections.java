package io.shardline.runtime.shard;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.redis.client.RedisConnection;
import java.util.ArrayDeque;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A bounded set of dedicated Redis connections lent out one caller at a time, for commands whose state lives
 * on the connection ({@code WATCH} / {@code MULTI} / {@code EXEC}): a pooled, multiplexed connection of the
 * Vert.x client cannot carry them. At most {@code max} connections are open at once; a borrower beyond that
 * waits (FIFO) for one to be returned. A use that fails closes its connection (its {@code WATCH} or
 * {@code MULTI} state is then unknown) and the next borrower opens a fresh one, so a Redis restart heals by
 * itself.
 *
 * <p>Thread-safe: members on different contexts share one instance per worker.
 */
public final class ExclusiveConnections {

    private final Supplier<Future<RedisConnection>> connector;
    private final int max;
    private final ArrayDeque<RedisConnection> free = new ArrayDeque<>();
    private final ArrayDeque<Promise<RedisConnection>> waiters = new ArrayDeque<>();
    private int open;
    private boolean closed;

    /**
     * @param connector opens one dedicated connection (with a connect timeout)
     * @param max the most connections open at once
     */
    public ExclusiveConnections(Supplier<Future<RedisConnection>> connector, int max) {
        if (max <= 0) {
            throw new IllegalArgumentException("exclusive connections: max must be > 0, got " + max);
        }
        this.connector = connector;
        this.max = max;
    }

    /**
     * Runs {@code use} with a connection of its own; the connection is returned when the future {@code use}
     * gives succeeds and closed when it fails.
     */
    public <T> Future<T> with(Function<RedisConnection, Future<T>> use) {
        return borrow().compose(c -> {
            Future<T> result;
            try {
                result = use.apply(c);
            } catch (RuntimeException e) {
                result = Future.failedFuture(e);
            }
            return result.andThen(ar -> {
                if (ar.succeeded()) {
                    giveBack(c);
                } else {
                    discard(c);
                }
            });
        });
    }

    /** The connections open now (lent out or idle). */
    public synchronized int open() {
        return open;
    }

    /** The most connections this set opens. */
    public int max() {
        return max;
    }

    /** Closes the idle connections and refuses new borrowers; lent connections are closed when returned. */
    public Future<Void> close() {
        ArrayDeque<RedisConnection> idle;
        ArrayDeque<Promise<RedisConnection>> waiting;
        synchronized (this) {
            closed = true;
            idle = new ArrayDeque<>(free);
            free.clear();
            open -= idle.size();
            waiting = new ArrayDeque<>(waiters);
            waiters.clear();
        }
        waiting.forEach(w -> w.tryFail("the member's Redis connections are closed"));
        idle.forEach(RedisConnection::close);
        return Future.succeededFuture();
    }

    private Future<RedisConnection> borrow() {
        Promise<RedisConnection> waiter;
        synchronized (this) {
            if (closed) {
                return Future.failedFuture("the member's Redis connections are closed");
            }
            RedisConnection idle = free.pollFirst();
            if (idle != null) {
                return Future.succeededFuture(idle);
            }
            if (open >= max) {
                waiter = Promise.promise();
                waiters.addLast(waiter);
                return waiter.future();
            }
            open++;
        }
        return connector.get().andThen(ar -> {
            if (ar.failed()) {
                connectionGone();
            }
        });
    }

    private void giveBack(RedisConnection c) {
        Promise<RedisConnection> next;
        synchronized (this) {
            if (closed) {
                open--;
                next = null;
            } else {
                next = waiters.pollFirst();
                if (next == null) {
                    free.addLast(c);
                    return;
                }
            }
        }
        if (next == null) {
            c.close();
        } else {
            next.complete(c);
        }
    }

    private void discard(RedisConnection c) {
        c.close();
        connectionGone();
    }

    /** A connection closed or never opened: a waiter (if any) may open a new one. */
    private void connectionGone() {
        Promise<RedisConnection> next;
        synchronized (this) {
            open--;
            next = closed ? null : waiters.pollFirst();
            if (next != null) {
                open++;
            }
        }
        if (next != null) {
            connector.get().andThen(ar -> {
                if (ar.failed()) {
                    connectionGone();
                }
            }).onComplete(next);
        }
    }
}
