package io.shardline.runtime.shard;

import io.shardline.runtime.redis.RedisClient;
import io.vertx.core.Future;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.concurrent.TimeUnit;

/**
 * {@link ShardRedis} over the worker's Redis connection layer ({@link RedisClient}): pooled commands with
 * its per-command timeout, the server's XACKDEL support from its {@code INFO server}, and plain
 * dedicated connections for the wake-up read (which reconnects by itself). Thread-safe.
 */
public final class RuntimeShardRedis implements ShardRedis {

    private final RedisClient client;

    /** Adapts {@code client}. */
    public RuntimeShardRedis(RedisClient client) {
        this.client = client;
    }

    @Override
    public Future<Response> send(Request request) {
        return client.send(request);
    }

    @Override
    public Future<RedisConnection> connectDedicated() {
        return client.redis().connect().timeout(commandTimeoutMs(), TimeUnit.MILLISECONDS);
    }

    @Override
    public long commandTimeoutMs() {
        return client.config().commandTimeoutMs();
    }

    @Override
    public boolean supportsXackdel() {
        return client.supportsXackdel();
    }
}
