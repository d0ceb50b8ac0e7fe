package io.shardline.producer.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.redis.RedisCluster;
import io.shardline.testkit.redis.RedisClusterTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The routing library on a Redis Cluster: loaded on every primary on first use, each call in its shard's slot. */
@RedisClusterTest(primaries = 3)
class ShardRoutingClusterTest {

    static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @Test
    void flipsAndAddsOnShardsOfEveryPrimary(RedisCluster cluster) throws Exception {
        Vertx vertx = Vertx.vertx();
        RedisOptions options = new RedisOptions().setType(RedisClientType.CLUSTER);
        cluster.seedUris().forEach(options::addConnectionString);
        Redis redis = Redis.createClient(vertx, options);
        try {
            ShardRouting routing = new ShardRouting(RoutingRedis.of(redis));
            java.util.Set<Integer> ports = new java.util.HashSet<>();
            for (int shard = 0; shard < 12; shard++) {
                ports.add(cluster.ownerOf(ShardRouting.shardKey("c", shard)).port());
                assertThat(await(routing.add("c", shard, 1, List.of("*", "v", "1")))).isInstanceOf(AddResult.Written.class);
                assertThat(await(routing.flip("c", shard, 2))).isNotEqualTo("0-0");
                assertThat(await(routing.add("c", shard, 1, List.of("*", "v", "2"))))
                        .isEqualTo(new AddResult.Refused(new StaleRouting("c", shard, 2)));
            }
            assertThat(ports).as("the shards span every primary").hasSize(3);
            var inOrder = await(routing.addInOrder(List.of(routing.addRequest("c", 0, 2, List.of("*", "v", "3")),
                    routing.addRequest("c", 1, 1, List.of("*", "v", "4")))));
            assertThat(inOrder.get(0).result()).isInstanceOf(AddResult.Written.class);
            assertThat(inOrder.get(1).result()).isInstanceOf(AddResult.Refused.class);
        } finally {
            redis.close();
            await(vertx.close());
        }
    }
}
