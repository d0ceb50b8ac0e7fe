package io.shardline.runtime.listener;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.shardline.api.config.Placeholders;
import io.shardline.api.handler.ShardId;
import io.shardline.runtime.control.ListenerLoader;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.shard.MemberShards;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.shard.VertxShardRedis;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@RedisTest
class ListenerTest {

    @TempDir
    Path dir;

    private static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
    }

    @Test
    void startCreatesGroupsAndMembersThatConsumeTheirShards(RedisServer server) throws Exception {
        Files.writeString(dir.resolve("audit.properties"), """
                handler = configured
                streams = orders:4
                group = auditors
                concurrency = 2
                start.from = earliest
                handler.config.prefix = p-
                """);
        Vertx vertx = Vertx.vertx();
        VertxShardRedis redis = VertxShardRedis.create(vertx, server.uri(), 4, 5_000);
        try (Plugins plugins = Plugins.load(List.of(), getClass().getClassLoader())) {
            ListenerDefinition def = ListenerLoader.loadAll(dir, plugins, Placeholders.system()).throwIfInvalid().listeners().get(0);
            // An entry written before the group exists is read too: start.from = earliest.
            await(redis.send(Request.cmd(Command.XADD).arg("{orders:3}").arg("*").arg("n").arg("early")));
            Listener listener = await(Listener.start(vertx, redis, def, "w1", new MetricRegistry(), new MemberShards.Events() { },
                    System::currentTimeMillis));

            assertThat(listener.members()).extracting(MemberShards::memberId).containsExactly("w1-audit-m0", "w1-audit-m1");
            for (int i = 0; i < 4; i++) {
                assertThat(await(redis.send(Request.cmd(Command.XINFO).arg("GROUPS").arg("{orders:" + i + "}"))).size()).isEqualTo(1);
            }
            ShardCommands commands = new ShardCommands(redis);
            ShardId s3 = new ShardId("orders", 3);
            await(commands.setOwner(s3, def.config().group(), "w1-audit-m1", 5));
            await(listener.members().get(1).acquire(s3, 5));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ConfiguredHandler.HANDLED.stream().noneMatch(s -> s.startsWith("p-w1-audit-m1:")) && System.nanoTime() < deadline) {
                Thread.sleep(10); // polling a condition with a deadline
            }
            assertThat(ConfiguredHandler.HANDLED).anyMatch(s -> s.startsWith("p-w1-audit-m1:"));
            await(listener.pause());
            await(listener.resume());
            await(listener.close());
            assertThat(listener.members().get(1).ownedShards()).isEmpty();
        } finally {
            redis.close();
            await(vertx.close());
        }
    }

    @Test
    void aListenerWithMoreShardsThanThePoolQueueHoldsStarts(RedisServer server) throws Exception {
        // 5,000 shards against a wait queue of 256: the groups are created in chunks, not all at once.
        Files.writeString(dir.resolve("wide.properties"), """
                handler = configured
                streams = wide:5000
                group = wide
                concurrency = 1
                handler.config.prefix = w-
                """);
        Vertx vertx = Vertx.vertx();
        VertxShardRedis redis = VertxShardRedis.create(vertx, server.uri(), 4, 5_000);
        try (Plugins plugins = Plugins.load(List.of(), getClass().getClassLoader())) {
            ListenerDefinition def = ListenerLoader.loadAll(dir, plugins, Placeholders.system()).throwIfInvalid().listeners().get(0);
            Listener listener = await(Listener.start(vertx, redis, def, "w1", new MetricRegistry(),
                    new MemberShards.Events() { }, System::currentTimeMillis));
            Object groups = await(redis.send(Request.cmd(Command.EVAL).arg("local n = 0 for i = 0, 4999 do "
                    + "n = n + #redis.call('XINFO', 'GROUPS', '{wide:' .. i .. '}') end return n").arg(0))).toLong();
            assertThat(groups).as("consumer groups created on the 5,000 shards").isEqualTo(5000L);
            await(listener.close());
        } finally {
            redis.close();
            await(vertx.close());
        }
    }
}
