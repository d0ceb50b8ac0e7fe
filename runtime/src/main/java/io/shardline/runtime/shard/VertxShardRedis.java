package io.shardline.runtime.shard;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.ProtocolVersion;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link ShardRedis} over a plain Vert.x Redis client: a bounded pool for commands, each with a timeout
 * (the client has none of its own), dedicated connections on demand (from a pool of their own, at most 64),
 * and as many exclusive connections for the hot path as the command pool has (a third pool). The client reconnects pooled
 * connections by itself on the next command after a failure. Thread-safe.
 */
public final class VertxShardRedis implements ShardRedis, AutoCloseable {

    private static final Pattern VERSION = Pattern.compile("redis_version:(\\d+)\\.(\\d+)");

    private final Redis client;
    private final Redis dedicatedClient;
    private final Redis exclusiveClient;
    private final long commandTimeoutMs;
    private final ExclusiveConnections exclusive;
    private volatile boolean xackdel;

    private VertxShardRedis(Vertx vertx, RedisOptions options, long commandTimeoutMs) {
        int maxExclusive = options.getMaxPoolSize();
        this.client = Redis.createClient(vertx, new RedisOptions(options));
        this.dedicatedClient = Redis.createClient(vertx, new RedisOptions(options).setMaxPoolSize(64));
        this.exclusiveClient = Redis.createClient(vertx, new RedisOptions(options));
        this.commandTimeoutMs = commandTimeoutMs;
        this.exclusive = new ExclusiveConnections(
                () -> exclusiveClient.connect().timeout(commandTimeoutMs, TimeUnit.MILLISECONDS), maxExclusive);
    }

    /**
     * A client for {@code uri} with at most {@code maxPoolSize} pooled connections, and as many exclusive ones
     * for the transactional hot path.
     *
     * @param commandTimeoutMs per-command timeout; blocking commands should use a dedicated connection
     */
    public static VertxShardRedis create(Vertx vertx, String uri, int maxPoolSize, long commandTimeoutMs) {
        RedisOptions options = new RedisOptions()
                .setConnectionString(uri)
                .setMaxPoolSize(maxPoolSize)
                .setMaxPoolWaiting(Math.max(256, maxPoolSize * 64))
                .setPreferredProtocolVersion(ProtocolVersion.RESP2);
        return new VertxShardRedis(vertx, options, commandTimeoutMs);
    }

    @Override
    public Future<Response> send(Request request) {
        return client.send(request).timeout(commandTimeoutMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public Future<RedisConnection> connectDedicated() {
        return dedicatedClient.connect().timeout(commandTimeoutMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public ExclusiveConnections exclusiveConnections() {
        return exclusive;
    }

    @Override
    public long commandTimeoutMs() {
        return commandTimeoutMs;
    }

    @Override
    public boolean supportsXackdel() {
        return xackdel;
    }

    /** Reads {@code INFO server} and records whether the server has XACKDEL (8.2+). */
    public Future<Boolean> detectServerVersion() {
        return send(Request.cmd(Command.INFO).arg("server")).map(r -> {
            Matcher m = VERSION.matcher(r.toString());
            boolean has = m.find() && (Integer.parseInt(m.group(1)) > 8
                    || Integer.parseInt(m.group(1)) == 8 && Integer.parseInt(m.group(2)) >= 2);
            xackdel = has;
            return has;
        });
    }

    @Override
    public void close() {
        exclusive.close();
        exclusiveClient.close();
        dedicatedClient.close();
        client.close();
    }
}
