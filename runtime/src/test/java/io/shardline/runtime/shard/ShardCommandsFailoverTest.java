package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.ShardTesting.await;
import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A primary of a real Redis Cluster with replicas is killed: its replica takes over, the worker's client follows
 * the new slot map, the shard's owner key, stream, group and the function library came over by replication, so the
 * shard's fenced commands go on under the same owner, and the cluster's identity (the primaries' run ids) changes,
 * which makes a leader re-fence.
 */
@RedisClusterTest(replicas = true)
class ShardCommandsFailoverTest {

    @Test
    void afterAFailoverTheShardGoesOnOnThePromotedReplica(RedisCluster cluster) throws IOException {
        Vertx vertx = Vertx.vertx();
        RedisClient client = await(RedisClient.connect(vertx, RedisConfig.cluster(cluster.seedUris()),
                new SplittableRandom(13)));
        RuntimeShardRedis redis = new RuntimeShardRedis(client);
        try {
            ShardCommands commands = new ShardCommands(redis);
            await(commands.loadLibrary());
            ShardId s = new ShardId("orders", 5);
            await(commands.ensureGroup(s, "g", "0"));
            List<String> first = ShardTesting.add(redis, s, 3);
            assertThat(await(commands.setOwner(s, "g", "A", 1))).isTrue();
            String identity = await(client.refreshServerInfo()).runId();
            RedisServer primary = cluster.ownerOf(s.key());
            try (RespProbe probe = primary.probe()) {
                assertThat((Long) probe.call("WAIT", "1", "5000")).as("replicated to the replica").isEqualTo(1L);
            }

            primary.kill();
            cluster.awaitHealthy(Duration.ofSeconds(40));
            assertThat(cluster.ownerOf(s.key()).port()).isNotEqualTo(primary.port());

            // The client reads the slot map every second; until it has the new one its commands fail.
            AtomicReference<ShardCommands.ReadResult> page = new AtomicReference<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (page.get() == null) {
                try {
                    page.set(await(commands.read(s, "g", "A", 1, 10, ">")));
                } catch (RuntimeException e) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("the shard was not read on the promoted replica within 30 s", e);
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L); // retry interval, not a condition
                }
            }
            assertThat(page.get().records()).extracting(StreamRecord::entryId).isEqualTo(first);
            assertThat(await(commands.ack(s, "g", "A", 1, AckMode.ACK, first))).isEqualTo(3);
            assertThat(await(client.refreshServerInfo()).runId()).isNotEqualTo(identity);
        } finally {
            await(redis.close());
            await(client.close());
            await(vertx.close());
        }
    }
}
