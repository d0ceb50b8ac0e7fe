package io.shardline.benchmarks.consumption;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.handler.Handler;
import io.shardline.api.handler.HandlerMetrics;
import io.shardline.api.handler.ShardId;
import io.shardline.runtime.plugin.HandlerPlugin;
import io.shardline.runtime.plugin.PluginDesc;
import io.shardline.runtime.shard.ConsumerSettings;
import io.shardline.runtime.shard.ConsumptionMetrics;
import io.shardline.runtime.shard.MemberContext;
import io.shardline.runtime.shard.MemberShards;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.shard.VertxShardRedis;
import io.shardline.testkit.redis.RedisServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Shared plumbing of the consumption benchmarks: one redis-server, one Vert.x, members and fills. */
final class BenchRedis implements AutoCloseable {

    final RedisServer server = RedisServer.start(false);
    final Vertx vertx = Vertx.vertx();
    final VertxShardRedis redis = VertxShardRedis.create(vertx, server.uri(), 8, 10_000);
    final ShardCommands commands = new ShardCommands(redis);
    final com.codahale.metrics.MetricRegistry registry = new com.codahale.metrics.MetricRegistry();

    BenchRedis() {
        await(commands.loadLibrary());
    }

    /** CPU time (ms) the redis-server process used so far, from /proc (Linux). */
    long redisCpuMs() {
        try {
            String[] f = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + server.pid() + "/stat")).split(" ");
            return (Long.parseLong(f[13]) + Long.parseLong(f[14])) * 10; // clock ticks of 10 ms
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    static <T> T await(Future<T> f) {
        try {
            return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static void waitUntil(long timeoutMs, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("benchmark condition not reached in " + timeoutMs + " ms");
            }
            try {
                Thread.sleep(2); // polling a condition with a deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    static List<ShardId> shards(String stream, int n) {
        List<ShardId> shards = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            shards.add(new ShardId(stream, i));
        }
        return shards;
    }

    /** Appends {@code n} small entries to a shard, pipelined 1,000 at a time. */
    void fill(ShardId shard, int n) {
        RedisConnection c = await(redis.connectDedicated());
        try {
            for (int from = 0; from < n; from += 1_000) {
                List<Request> batch = new ArrayList<>();
                for (int i = from; i < Math.min(n, from + 1_000); i++) {
                    batch.add(Request.cmd(Command.XADD).arg(shard.key()).arg("*").arg("n").arg(i).arg("t").arg(0));
                }
                await(c.batch(batch));
            }
        } finally {
            c.close();
        }
    }

    void group(List<ShardId> shards, String group, String member, long epoch) {
        for (ShardId s : shards) {
            await(commands.ensureGroup(s, group, "0"));
            if (member != null) {
                await(commands.setOwner(s, group, member, epoch));
            }
        }
    }

    MemberShards member(String id, Handler handler, ConsumerSettings settings, String listener) {
        PluginDesc desc = new PluginDesc(Handler.class.getName(), handler.getClass().getName(), "bench", "1", "classpath",
                getClass().getClassLoader());
        MemberContext context = new MemberContext(listener, id, settings.group(), new ConfigDef().parse(Map.of()), HandlerMetrics.noop());
        MemberShards m = new MemberShards(vertx, redis, new HandlerPlugin(desc, handler), context, settings, new MemberShards.Events() { },
                new ConsumptionMetrics(registry, listener), System::currentTimeMillis, System::nanoTime);
        await(m.start());
        return m;
    }

    @Override
    public void close() {
        redis.close();
        await(vertx.close());
        server.close();
    }
}
