package io.shardline.runtime.shard;

import io.vertx.core.Future;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The narrow Redis access shard consumption needs: pooled commands with a per-command timeout, one
 * dedicated connection per member for its blocking wake-up read, and a bounded set of dedicated connections
 * per worker for the fenced transactions of the hot path. Kept this small so the implementation
 * can sit on the runtime's shared connection layer or on a plain Vert.x client.
 *
 * <p>Implementations are thread-safe.
 */
public interface ShardRedis {

    /**
     * Sends one command on a pooled connection.
     *
     * @return the reply; failed with the server's error, or with a timeout / connection failure
     */
    Future<Response> send(Request request);

    /**
     * Sends one command to every primary of a Redis Cluster, or to the one server otherwise (the default): for
     * what each node needs locally, such as {@code FUNCTION LOAD}.
     */
    default Future<Void> sendToAllPrimaries(Request request) {
        return send(request).mapEmpty();
    }

    /**
     * Opens a dedicated connection (not shared with {@link #send}), for a blocking command. The caller
     * closes it and opens a new one after a failure.
     */
    Future<RedisConnection> connectDedicated();

    /** The per-command timeout in milliseconds applied by {@link #send}. */
    long commandTimeoutMs();

    /**
     * The worker's bounded set of dedicated connections for the transactional hot path
     * ({@code WATCH}/{@code MULTI}/{@code EXEC} need a connection of their own); the same instance on every call.
     */
    ExclusiveConnections exclusiveConnections();

    /**
     * True when the client talks to a Redis Cluster: multi-key commands over different shards are then refused
     * ({@code CROSSSLOT}), so the wake-up read groups its keys by hash slot and the hot path uses the script.
     */
    default boolean cluster() {
        return false;
    }

    /** True when the server has {@code XACKDEL} (Redis 8.2+); known after the first {@link ShardCommands#loadLibrary()}. */
    boolean supportsXackdel();
}
