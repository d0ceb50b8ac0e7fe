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

    /** A Redis-side cap trims on the write, read or not: what the docs warn about (docs/operations.md, Retention). */
    @Test
    void aCapTrimsOnTheWriteAndCanDropRecordsAGroupHasNotRead(RedisServer server) throws Exception {
        Vertx vertx = Vertx.vertx();
        Redis redis = Redis.createClient(vertx, server.uri());
        try {
            ShardProducer capped = new ShardProducer(redis, "capped", 1, StreamCap.maxLength(100));
            await(redis.send(Request.cmd(Command.XGROUP).arg("CREATE").arg(capped.shardKey(0)).arg("unread").arg("0")
                    .arg("MKSTREAM")));
            List<ShardProducer.Record> records = new java.util.ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                records.add(new ShardProducer.Record(null, Map.of("n", Integer.toString(i))));
            }
            await(capped.sendAll(records));
            long length = await(redis.send(Request.cmd(Command.XLEN).arg(capped.shardKey(0)))).toLong();
            assertThat(length).as("MAXLEN ~ 100 keeps at least 100, about 100").isBetween(100L, 300L);
            Response read = await(redis.send(Request.cmd(Command.XREADGROUP).arg("GROUP").arg("unread").arg("c")
                    .arg("COUNT").arg(2_000).arg("STREAMS").arg(capped.shardKey(0)).arg(">")));
            assertThat(read.get(capped.shardKey(0)).size()).as("the group never sees the trimmed records").isEqualTo((int) length);

            long[] now = {1_000};
            ShardProducer aged = new ShardProducer(redis, "aged", 1, StreamCap.maxAge(500, () -> now[0]));
            assertThat(aged.shardKey(0)).isEqualTo("{aged:0}");
            await(aged.sendAll(records.subList(0, 300)));
            assertThat(await(redis.send(Request.cmd(Command.XLEN).arg(aged.shardKey(0)))).toLong())
                    .as("nothing older than now - 500 ms yet").isEqualTo(300);
            now[0] = System.currentTimeMillis() + 60_000;
            await(aged.send(null, Map.of("n", "new")));
            assertThat(await(redis.send(Request.cmd(Command.XLEN).arg(aged.shardKey(0)))).toLong())
                    .as("MINID ~ dropped the whole nodes older than now - 500 ms").isLessThan(301);
            assertThat(StreamCap.maxAge(500, () -> 10_000).arguments()).containsExactly("MINID", "~", "9500-0");
            assertThat(StreamCap.NONE.arguments()).isEmpty();
        } finally {
            redis.close();
            await(vertx.close());
        }
    }
}
