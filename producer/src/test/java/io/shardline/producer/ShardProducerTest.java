package io.shardline.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@RedisTest
class ShardProducerTest {

    private static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
    }

    @Test
    void recordsLandOnTheKeysShardWithTheKeyFirst(RedisServer server) throws Exception {
        Vertx vertx = Vertx.vertx();
        Redis redis = Redis.createClient(vertx, server.uri());
        try {
            ShardProducer producer = new ShardProducer(redis, "orders", 8);
            String id = await(producer.send("customer-42", Map.of("amount", "10")));
            int shard = KeyPartitioner.shardFor("customer-42", 8);
            Response entries = await(redis.send(Request.cmd(Command.XRANGE).arg("{orders:" + shard + "}").arg("-").arg("+")));
            assertThat(entries.size()).isEqualTo(1);
            assertThat(entries.get(0).get(0).toString()).isEqualTo(id);
            assertThat(entries.get(0).get(1).get(0).toString()).isEqualTo("__key");
            assertThat(entries.get(0).get(1).get(1).toString()).isEqualTo("customer-42");

            List<String> ids = await(producer.sendAll(List.of(
                    new ShardProducer.Record(null, Map.of("n", "1")), new ShardProducer.Record(null, Map.of("n", "2")))));
            assertThat(ids).hasSize(2);
            long total = 0;
            for (int i = 0; i < 8; i++) {
                total += await(redis.send(Request.cmd(Command.XLEN).arg(producer.shardKey(i)))).toLong();
            }
            assertThat(total).isEqualTo(3);
        } finally {
            redis.close();
            await(vertx.close());
        }
    }
}
