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
        return BenchStats.processCpuMs(server.pid());
    }

    /** With {@code -Dbench.commandstats=true}: resets Redis's command statistics (see {@link #printCommandStats}). */
    void resetCommandStats() {
        if (Boolean.getBoolean("bench.commandstats")) {
            await(redis.send(Request.cmd(Command.CONFIG).arg("RESETSTAT")));
        }
    }

    /** With {@code -Dbench.commandstats=true}: prints Redis's command calls per second and time per call since the reset. */
    void printCommandStats(String what, double seconds) {
        if (Boolean.getBoolean("bench.commandstats")) {
            System.out.println(formatCommandStats(what, commandStats(new java.util.TreeMap<>()), seconds));
        }
    }

    /** Adds Redis's command calls and microseconds since the last reset to {@code into} (command -> {calls, usec}). */
    java.util.Map<String, long[]> commandStats(java.util.Map<String, long[]> into) {
        String info = await(redis.send(Request.cmd(Command.INFO).arg("commandstats"))).toString();
        java.util.regex.Pattern p = java.util.regex.Pattern.compile("cmdstat_([^:]+):calls=(\\d+),usec=(\\d+)");
        for (String l : info.split("\\r?\\n")) {
            java.util.regex.Matcher m = p.matcher(l);
            if (m.find() && !m.group(1).startsWith("config") && !m.group(1).startsWith("info")) {
                long[] v = into.computeIfAbsent(m.group(1), k -> new long[2]);
                v[0] += Long.parseLong(m.group(2));
                v[1] += Long.parseLong(m.group(3));
            }
        }
        return into;
    }

    static String formatCommandStats(String what, java.util.Map<String, long[]> stats, double seconds) {
        StringBuilder line = new StringBuilder("redis commands during " + what + ":");
        stats.forEach((cmd, v) -> line.append(String.format(java.util.Locale.ROOT, " %s %.0f/s (%.1f us each, %.0f ms/s);", cmd,
                v[0] / seconds, v[0] == 0 ? 0.0 : (double) v[1] / v[0], v[1] / 1000.0 / seconds)));
        return line.toString();
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

    /**
     * Appends {@code n} small entries ({@code n}, {@code t} = 0) to every shard, all shards at once, each on a
     * connection of its own with {@value #FILL_PIPELINE} entries per pipelined batch.
     */
    void fillAll(List<ShardId> shards, int n) {
        List<Future<Void>> fills = new ArrayList<>();
        for (ShardId s : shards) {
            fills.add(redis.connectDedicated().compose(c -> fillFrom(c, s, 0, n).eventually(c::close)));
        }
        await(Future.all(fills));
    }

    private static final int FILL_PIPELINE = 2_000;

    private static Future<Void> fillFrom(RedisConnection c, ShardId shard, int from, int n) {
        if (from >= n) {
            return Future.succeededFuture();
        }
        List<Request> batch = new ArrayList<>();
        for (int i = from; i < Math.min(n, from + FILL_PIPELINE); i++) {
            batch.add(Request.cmd(Command.XADD).arg(shard.key()).arg("*").arg("n").arg(i).arg("t").arg(0));
        }
        return c.batch(batch).compose(r -> fillFrom(c, shard, from + FILL_PIPELINE, n));
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
