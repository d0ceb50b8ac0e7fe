package io.shardline.runtime.shard;

import io.shardline.runtime.redis.RedisClient;
import io.vertx.core.Future;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.concurrent.TimeUnit;

/**
 * {@link ShardRedis} over the worker's Redis connection layer ({@link RedisClient}): pooled commands with
 * its per-command timeout, the server's XACKDEL support from its {@code INFO server}, and plain
 * dedicated connections for the wake-up read (which reconnects by itself), and at most {@code redis.pool.size}
 * exclusive connections for the transactional hot path. Thread-safe.
 */
public final class RuntimeShardRedis implements ShardRedis {

    /** The most wake-up connections (up to {@value WakeUps#CONNECTIONS} per member) open at once on one worker. */
    static final int MAX_WAKE_UP_CONNECTIONS = 1024;

    private final RedisClient client;
    private final Redis wakeUpClient;
    private final Redis exclusiveClient;
    private final ExclusiveConnections exclusive;

    /**
     * Adapts {@code client}. The hot path's exclusive connections (at most {@code redis.pool.size}) and the
     * members' wake-up connections come from two pools of their own, so neither can starve the other nor
     * {@link #send}.
     */
    public RuntimeShardRedis(RedisClient client) {
        this.client = client;
        this.wakeUpClient = client.newClient(MAX_WAKE_UP_CONNECTIONS);
        this.exclusiveClient = client.newClient(client.config().poolSize());
        this.exclusive = new ExclusiveConnections(
                () -> exclusiveClient.connect().timeout(commandTimeoutMs(), TimeUnit.MILLISECONDS), client.config().poolSize());
    }

    @Override
    public Future<Response> send(Request request) {
        return client.send(request);
    }

    @Override
    public Future<Void> sendToAllPrimaries(Request request) {
        return client.onAllPrimaries(request).mapEmpty();
    }

    @Override
    public Future<RedisConnection> connectDedicated() {
        return wakeUpClient.connect().timeout(commandTimeoutMs(), TimeUnit.MILLISECONDS);
    }

    @Override
    public ExclusiveConnections exclusiveConnections() {
        return exclusive;
    }

    @Override
    public boolean cluster() {
        return client.config().cluster();
    }

    @Override
    public long commandTimeoutMs() {
        return client.config().commandTimeoutMs();
    }

    @Override
    public boolean supportsXackdel() {
        return client.supportsXackdel();
    }

    /** Closes the exclusive and wake-up pools (the worker's {@link RedisClient} is closed by its owner). */
    public Future<Void> close() {
        return exclusive.close().eventually(wakeUpClient::close).eventually(exclusiveClient::close);
    }
}
