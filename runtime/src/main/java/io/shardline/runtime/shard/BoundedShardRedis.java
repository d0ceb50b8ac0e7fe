package io.shardline.runtime.shard;

import io.shardline.runtime.redis.CommandGate;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.Objects;

/**
 * The members' {@link ShardRedis}: at most {@code limit} of their pooled commands in flight at once on a worker, the
 * others waiting here in order, so that a member taking thousands of shards at once (each a takeover) never fills
 * the pool's wait queue ({@code redis.pool.waiting}), where the coordinator's writes would then be refused and its
 * leader epoch lost (docs/reliability.md, "Overload"); a {@link CommandGate} keeps the places and starts a waiting
 * command on the context that sent it. A command's timeout starts when it leaves this queue. The
 * hot path's exclusive connections and the wake-up connections are bounded by their own pools and pass through.
 * Thread-safe.
 */
public final class BoundedShardRedis implements ShardRedis {

    private final ShardRedis delegate;
    private final CommandGate gate;

    /** {@code delegate}'s pooled commands, at most {@code limit} in flight at once; the others wait in order. */
    public BoundedShardRedis(Vertx vertx, ShardRedis delegate, int limit) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        // A command ends within its own timeout; the gate's release after twice that only guards against a hang.
        this.gate = new CommandGate(vertx, limit, Integer.MAX_VALUE, 2 * delegate.commandTimeoutMs(),
                "redis.pool.size, redis.pool.waiting");
    }

    @Override
    public Future<Response> send(Request request) {
        return gate.run(() -> delegate.send(request));
    }

    /** Commands in flight now (at most the limit). */
    int inFlight() {
        return gate.inFlight();
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
