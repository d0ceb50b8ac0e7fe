package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.ShardTesting.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.testkit.redis.RedisCluster;
import io.shardline.testkit.redis.RedisClusterTest;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shard commands on a real three-primary Redis Cluster, through the worker's connection layer in cluster
 * mode: the function library reaches every primary, fenced reads, acknowledgements, takeovers and owner writes
 * work on shards whose keys live on different nodes, and a node that lost the library (restarted empty) gets it
 * again on the first call that needs it, which then succeeds.
 */
@RedisClusterTest
class ShardCommandsClusterTest {

    private static final String G = "g";
    private static final List<ShardId> SHARDS = IntStream.range(0, 8).mapToObj(i -> new ShardId("orders", i)).toList();

    private Vertx vertx;
    private RedisClient client;
    private RuntimeShardRedis redis;
    private ShardCommands commands;

    @BeforeEach
    void setUp(RedisCluster cluster) {
        cluster.flushAll();
        vertx = Vertx.vertx();
        client = await(RedisClient.connect(vertx, RedisConfig.cluster(cluster.seedUris()), new SplittableRandom(11)));
        redis = new RuntimeShardRedis(client);
        commands = new ShardCommands(redis);
        await(commands.loadLibrary());
    }

    @AfterEach
    void tearDown() {
        await(redis.close());
        await(client.close());
        await(vertx.close());
    }

    @Test
    void theLibraryIsLoadedOnEveryPrimary(RedisCluster cluster) throws IOException {
        assertThat(redis.cluster()).isTrue();
        assertThat(commands.hotPath()).isEqualTo(HotPath.SCRIPT);
        for (RedisServer node : cluster.nodes()) {
            assertThat(libraries(node)).as("FUNCTION LIST on %s", node).containsExactly("shardline");
        }
    }

    @Test
    void fencedCommandsWorkOnShardsOfEveryNode(RedisCluster cluster) {
        Set<Integer> nodes = SHARDS.stream().map(s -> cluster.ownerOf(s.key()).port()).collect(Collectors.toSet());
        assertThat(nodes).as("the 8 shards live on all three primaries").hasSize(3);
        for (ShardId s : SHARDS) {
            await(commands.ensureGroup(s, G, "0"));
            await(commands.ensureGroup(s, G, "0")); // BUSYGROUP is fine
            List<String> ids = ShardTesting.add(redis, s, 3);
            assertThat(await(commands.setOwner(s, G, "A", 1))).isTrue();

            ShardCommands.ReadResult page = await(commands.read(s, G, "A", 1, 10, ">"));
            assertThat(page.records()).extracting(StreamRecord::entryId).as("read of %s", s).isEqualTo(ids);
            assertThat(await(commands.ack(s, G, "A", 1, AckMode.ACK, List.of(ids.get(0))))).isEqualTo(1);
            ShardCommands.ReadResult next = await(commands.ackAndRead(s, G, "A", 1, AckMode.ACK_DELETE,
                    List.of(ids.get(1)), 10));
            assertThat(next.records()).isEmpty();

            assertThat(await(commands.setOwner(s, G, "B", 2))).isTrue();
            assertThatThrownBy(() -> await(commands.ack(s, G, "A", 1, AckMode.ACK, List.of(ids.get(2)))))
                    .hasMessageContaining("FENCED " + s.key() + " owner=B epoch=2");
            ShardCommands.TakeoverPage sweep = await(commands.takeover(s, G, "B", 2, "0-0", 100));
            assertThat(sweep.done()).isTrue();
            assertThat(sweep.claimed()).as("takeover of %s", s).isEqualTo(1);
            ShardCommands.ReadResult replay = await(commands.read(s, G, "B", 2, 10, "0"));
            assertThat(replay.records()).extracting(StreamRecord::entryId).containsExactly(ids.get(2));
        }
    }

    @Test
    void aNodeThatLostTheLibraryGetsItBackOnTheFirstCallThatNeedsIt(RedisCluster cluster) throws IOException {
        ShardId s = SHARDS.get(0);
        RedisServer node = cluster.ownerOf(s.key());
        try (RespProbe probe = node.probe()) {
            probe.call("FUNCTION", "FLUSH");
        }
        assertThat(libraries(node)).isEmpty();

        await(commands.ensureGroup(s, G, "0"));
        assertThat(await(commands.setOwner(s, G, "A", 1))).isTrue();
        assertThat(libraries(node)).containsExactly("shardline");
        for (RedisServer other : cluster.nodes()) {
            assertThat(libraries(other)).as("FUNCTION LIST on %s", other).containsExactly("shardline");
        }
    }

    @Test
    void consumptionGoesOnAfterAShardsNodeRestartsEmpty(RedisCluster cluster) {
        ShardId s = SHARDS.get(1);
        await(commands.ensureGroup(s, G, "0"));
        ShardTesting.add(redis, s, 2);
        assertThat(await(commands.setOwner(s, G, "A", 1))).isTrue();
        assertThat(await(commands.read(s, G, "A", 1, 10, ">")).records()).hasSize(2);

        RedisServer node = cluster.ownerOf(s.key());
        node.kill();
        node.startAgain();
        cluster.awaitHealthy(Duration.ofSeconds(30));

        // The node lost its data and the library; the coordinator side writes the owner again (reloading the
        // library on the way), the member recreates the group and reads what is produced afterwards.
        ShardTesting.waitUntil("the owner written again on the restarted node", 20_000, () -> {
            try {
                return await(commands.setOwner(s, G, "A", 2));
            } catch (RuntimeException e) {
                return false; // the client's connections to the restarted node are being replaced
            }
        });
        await(commands.ensureGroup(s, G, "0"));
        List<String> after = ShardTesting.add(redis, s, 2);
        assertThat(await(commands.read(s, G, "A", 2, 10, ">")).records()).extracting(StreamRecord::entryId)
                .isEqualTo(after);
    }

    private static List<String> libraries(RedisServer node) throws IOException {
        try (RespProbe probe = node.probe()) {
            return ((List<?>) probe.call("FUNCTION", "LIST")).stream()
                    .map(l -> String.valueOf(((List<?>) l).get(1)))
                    .toList();
        }
    }
}
