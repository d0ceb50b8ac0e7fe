package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.ShardTesting.await;

import com.codahale.metrics.MetricRegistry;
import io.shardline.api.config.ConfigDef;
import io.shardline.api.handler.Handler;
import io.shardline.api.handler.HandlerMetrics;
import io.shardline.api.handler.ShardId;
import io.shardline.runtime.plugin.HandlerPlugin;
import io.shardline.runtime.plugin.PluginDesc;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** Wires members over one Vert.x and one Redis for tests; closes everything. */
final class MemberHarness implements AutoCloseable {

    static final String GROUP = "g";
    static final String DLQ = "test.dlq";

    final Vertx vertx = Vertx.vertx();
    final VertxShardRedis redis;
    final ShardCommands commands;
    final MetricRegistry registry = new MetricRegistry();
    final List<String> fenced = new CopyOnWriteArrayList<>();
    private final List<MemberShards> members = new ArrayList<>();

    MemberHarness(String uri) {
        redis = VertxShardRedis.create(vertx, uri, 8, 10_000);
        commands = new ShardCommands(redis);
        await(redis.send(Request.cmd(Command.FLUSHALL)));
        await(commands.loadLibrary());
    }

    /** Creates the shard streams and the group, and writes the owner. */
    void own(List<ShardId> shards, String member, long epoch) {
        for (ShardId s : shards) {
            await(commands.ensureGroup(s, GROUP, "0"));
            await(commands.setOwner(s, GROUP, member, epoch));
        }
    }

    MemberShards member(String id, Handler handler, ConsumerSettings settings) {
        return member(id, handler, settings, recordingFences(id), redis, MemberLease.unbounded());
    }

    MemberShards member(String id, Handler handler, ConsumerSettings settings, MemberShards.Events events) {
        return member(id, handler, settings, events, redis, MemberLease.unbounded());
    }

    /** A member on {@code redis} (e.g. a wrapper around {@link #redis}) whose processing is gated by {@code lease}. */
    MemberShards member(String id, Handler handler, ConsumerSettings settings, ShardRedis redis, MemberLease lease) {
        return member(id, handler, settings, recordingFences(id), redis, lease);
    }

    private MemberShards.Events recordingFences(String id) {
        return new MemberShards.Events() {
            @Override
            public void fenced(ShardId shard, long epoch, String reason) {
                fenced.add(id + " " + shard + "@" + epoch);
            }
        };
    }

    MemberShards member(String id, Handler handler, ConsumerSettings settings, MemberShards.Events events,
                        ShardRedis redis, MemberLease lease) {
        PluginDesc desc = new PluginDesc(Handler.class.getName(), handler.getClass().getName(), "test", "1", "classpath",
                getClass().getClassLoader());
        MemberContext context = new MemberContext("orders-listener", id, settings.group(), new ConfigDef().parse(Map.of()),
                HandlerMetrics.noop());
        MemberShards m = new MemberShards(vertx, redis, new HandlerPlugin(desc, handler), context, settings, events,
                new ConsumptionMetrics(registry, "orders-listener"), System::currentTimeMillis, System::nanoTime, lease);
        await(m.start());
        members.add(m);
        return m;
    }

    static ConsumerSettings settings(int maxConcurrency, int batchSize) {
        return ConsumerSettings.defaults(GROUP, DLQ).withConcurrency(maxConcurrency, batchSize).withRetries(3, 10, 50, 5_000);
    }

    long pending(ShardId shard) {
        return await(redis.send(Request.cmd(Command.XPENDING).arg(shard.key()).arg(GROUP))).get(0).toLong();
    }

    long length(String key) {
        return await(redis.send(Request.cmd(Command.XLEN).arg(key))).toLong();
    }

    @Override
    public void close() {
        for (MemberShards m : members) {
            try {
                await(m.fenceAll());
            } catch (RuntimeException e) {
                // best effort
            }
        }
        redis.close();
        await(vertx.close());
    }
}
