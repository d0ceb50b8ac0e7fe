package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.ShardTesting.add;
import static io.shardline.runtime.shard.ShardTesting.await;
import static io.shardline.runtime.shard.ShardTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The wake-up loop in cluster mode (a standalone server stands in for the cluster; the loop only sees
 * {@link ShardRedis#cluster()}): it never blocks and never opens its dedicated connection, reads idle shards in
 * groups of one hash slot, and still wakes a shard that gets an entry.
 */
@RedisTest
class WakeUpLoopClusterModeTest {

    private Vertx vertx;
    private VertxShardRedis real;

    @BeforeEach
    void setUp(RedisServer server) {
        vertx = Vertx.vertx();
        real = VertxShardRedis.create(vertx, server.uri(), 4, 10_000);
        await(real.send(Request.cmd(Command.FLUSHALL)));
    }

    @AfterEach
    void tearDown() {
        real.close();
        await(vertx.close());
    }

    @Test
    void slotGroupsKeepOnlyKeysOfOneSlotTogether() {
        List<ShardId> shards = IntStream.range(0, 40).mapToObj(i -> new ShardId("orders", i)).toList();
        List<List<ShardId>> groups = WakeUpLoop.slotGroups(shards);
        assertThat(groups.stream().mapToInt(List::size).sum()).isEqualTo(40);
        for (List<ShardId> g : groups) {
            assertThat(g.stream().map(s -> HashSlot.of(s.key())).distinct()).hasSize(1);
        }
        assertThat(groups.stream().map(g -> HashSlot.of(g.get(0).key())).distinct()).hasSize(groups.size());
    }

    @Test
    void inClusterModeAnIdleShardIsWokenByPollingWithoutBlocking() {
        List<ShardId> shards = IntStream.range(0, 6).mapToObj(i -> new ShardId("orders", i)).toList();
        List<String> tops = shards.stream().map(s -> add(real, s, 1).get(0)).toList();
        AtomicInteger connects = new AtomicInteger();
        List<String> commands = new CopyOnWriteArrayList<>();
        ShardRedis cluster = new ShardRedis() {
            @Override
            public Future<Response> send(Request request) {
                commands.add(request.command().toString());
                return real.send(request);
            }

            @Override
            public Future<RedisConnection> connectDedicated() {
                connects.incrementAndGet();
                return real.connectDedicated();
            }

            @Override
            public ExclusiveConnections exclusiveConnections() {
                return real.exclusiveConnections();
            }

            @Override
            public boolean cluster() {
                return true;
            }

            @Override
            public long commandTimeoutMs() {
                return real.commandTimeoutMs();
            }

            @Override
            public boolean supportsXackdel() {
                return false;
            }
        };
        List<ShardId> woken = new CopyOnWriteArrayList<>();
        Context context = vertx.getOrCreateContext();
        WakeUpLoop loop = new WakeUpLoop(cluster, context, 1_000, woken::add);
        context.runOnContext(v -> IntStream.range(0, 6).forEach(i -> loop.add(shards.get(i), tops.get(i))));
        waitUntil("a few polls", 5_000, () -> commands.size() >= 12);
        assertThat(woken).isEmpty();

        add(real, shards.get(3), 1);
        waitUntil("shard 3 woken", 5_000, () -> woken.contains(shards.get(3)));
        assertThat(woken).containsExactly(shards.get(3));
        assertThat(connects.get()).as("no blocking connection in cluster mode").isZero();
        assertThat(commands).allMatch(c -> c.equalsIgnoreCase("XREAD"));
        context.runOnContext(v -> loop.close());
    }
}
