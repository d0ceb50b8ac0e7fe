package io.shardline.runtime.shard;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * The members' {@link ShardRedis}: at most {@code limit} of their pooled commands in flight at once on a worker, the
 * others waiting here in order, so that a member taking thousands of shards at once (each a takeover) never fills
 * the pool's wait queue ({@code redis.pool.waiting}), where the coordinator's writes would then be refused and its
 * leader epoch lost (docs/reliability.md, "Overload"). A command's timeout starts when it leaves this queue. The
 * hot path's exclusive connections and the wake-up connections are bounded by their own pools and pass through.
 * Thread-safe.
 */
public final class BoundedShardRedis implements ShardRedis {

    private final ShardRedis delegate;
    private final int limit;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private int inFlight;

    /** {@code delegate}'s pooled commands, at most {@code limit} in flight at once. */
    public BoundedShardRedis(ShardRedis delegate, int limit) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        }
        this.limit = limit;
    }

    @Override
    public Future<Response> send(Request request) {
        Promise<Response> reply = Promise.promise();
        Runnable call = () -> delegate.send(request).onComplete(ar -> {
            release();
            reply.handle(ar);
        });
        boolean now;
        synchronized (this) {
            now = inFlight < limit;
            if (now) {
                inFlight++;
            } else {
                waiting.addLast(call);
            }
        }
        if (now) {
            call.run();
        }
        return reply.future();
    }

    private void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.pollFirst();
            if (next == null) {
                inFlight--;
            }
        }
        if (next != null) {
            next.run(); // its permit is the one just released
        }
    }

    /** Commands in flight now (at most the limit). */
    synchronized int inFlight() {
        return inFlight;
    }

    /** Commands waiting for one in flight to return. */
    synchronized int waiting() {
        return waiting.size();
    }

    @Override
    public Future<Void> sendToAllPrimaries(Request request) {
        return delegate.sendToAllPrimaries(request);
    }

    @Override
    public Future<RedisConnection> connectDedicated() {
        return delegate.connectDedicated();
    }

    @Override
    public long commandTimeoutMs() {
        return delegate.commandTimeoutMs();
    }

    @Override
    public ExclusiveConnections exclusiveConnections() {
        return delegate.exclusiveConnections();
    }

    @Override
    public boolean cluster() {
        return delegate.cluster();
    }

    @Override
    public boolean supportsXackdel() {
        return delegate.supportsXackdel();
    }
}
