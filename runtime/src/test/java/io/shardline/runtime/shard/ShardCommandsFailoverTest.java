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
            List<String> first = null;
            RedisServer primary = null;
            // On a loaded machine the cluster may fail over on its own (a primary that answers no ping within the
            // node timeout) between a write and WAIT, and an asynchronously replicated write is then lost with the
            // demoted primary. The test's precondition is that the replica to be promoted holds the data; it is
            // checked on the replica itself and the data written again when a failover lost it.
            for (int attempt = 1; first == null; attempt++) {
                await(commands.ensureGroup(s, "g", "0"));
                List<String> added = ShardTesting.add(redis, s, 3);
                assertThat(await(commands.setOwner(s, "g", "A", 1))).isTrue();
                primary = cluster.ownerOf(s.key());
                if (replicasHold(primary, s, added)) {
                    first = added;
                } else if (attempt == 3) {
                    throw new AssertionError("the shard's data did not reach the replica of " + primary + " in 3 tries");
                } else {
                    cluster.awaitHealthy(Duration.ofSeconds(40));
                    await(redis.send(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.DEL)
                            .arg(s.key()).arg(s.ownerKey("g"))));
                }
            }
            String identity = await(client.refreshServerInfo()).runId();

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

    /**
     * True when every replica of {@code primary} acknowledged its writes ({@code WAIT}) and holds the shard's owner
     * record and exactly {@code ids} in the stream, read on the replica itself ({@code READONLY}).
     */
    private static boolean replicasHold(RedisServer primary, ShardId s, List<String> ids) throws IOException {
        List<Integer> replicaPorts = new java.util.ArrayList<>();
        try (RespProbe probe = primary.probe()) {
            String replication = (String) probe.call("INFO", "replication");
            if (!replication.contains("role:master")) {
                return false; // failed over while the data was written
            }
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("slave\\d+:ip=[^,]+,port=(\\d+)")
                    .matcher(replication);
            while (m.find()) {
                replicaPorts.add(Integer.parseInt(m.group(1)));
            }
            if (replicaPorts.isEmpty() || (Long) probe.call("WAIT", Integer.toString(replicaPorts.size()), "5000")
                    < replicaPorts.size()) {
                return false;
            }
        }
        for (int port : replicaPorts) {
            try (RespProbe replica = RespProbe.connect("127.0.0.1", port, 5000)) {
                replica.call("READONLY");
                Object owner = replica.call("HGET", s.ownerKey("g"), "owner");
                List<?> entries = (List<?>) replica.call("XRANGE", s.key(), "-", "+");
                List<String> held = entries.stream().map(e -> String.valueOf(((List<?>) e).get(0))).toList();
                if (!"A".equals(owner) || !held.equals(ids)) {
                    return false;
                }
            }
        }
        return true;
    }
}
