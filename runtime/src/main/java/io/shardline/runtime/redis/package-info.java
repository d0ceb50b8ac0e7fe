/**
 * The Redis connection layer: {@link io.shardline.runtime.redis.RedisClient} (pooled commands with a
 * per-command timeout, server version and {@code run_id}), {@link io.shardline.runtime.redis.ReconnectingConnection}
 * (dedicated connections that reconnect with backoff), and the {@code redis.*} settings
 * ({@link io.shardline.runtime.redis.RedisConfig}).
 *
 * <p>Use: {@code RedisClient.connect(vertx, RedisConfig.from(values), random)}; ordinary commands with
 * {@code client.send(Request.cmd(Command.X)...)}; blocking reads on {@code client.dedicated("name")}.
 */
package io.shardline.runtime.redis;
