package io.shardline.runtime.redis;

import io.shardline.producer.routing.RoutingRedis;
import io.vertx.core.Future;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.Objects;

/**
 * The routing library's Redis calls ({@link RoutingRedis}, used by {@code io.shardline.producer.routing.ShardRouting})
 * over the worker's connection layer: its pool and per-command timeout, and {@link RedisClient#onAllPrimaries} to
 * load the function library on every primary of a Redis Cluster. Commands in order go one after the other's reply
 * (the default of {@link RoutingRedis#sendInOrder}). Thread-safe.
 */
public final class ClientRoutingRedis implements RoutingRedis {

    private final RedisClient client;

    /** Over {@code client}. */
    public ClientRoutingRedis(RedisClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    @Override
    public Future<Response> send(Request request) {
        return client.send(request);
    }

    @Override
    public Future<Void> sendToAllPrimaries(Request request) {
        return client.onAllPrimaries(request).mapEmpty();
    }
}
