package io.shardline.producer.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The routing library against a real redis-server (docs/protocol.md, section 8b). */
@RedisTest
class ShardRoutingTest {

    private Vertx vertx;
    private Redis redis;
    private ShardRouting routing;

    @BeforeEach
    void connect(RedisServer server) throws Exception {
        vertx = Vertx.vertx();
        redis = Redis.createClient(vertx, server.uri());
        await(redis.send(Request.cmd(Command.FLUSHALL)));
        await(redis.send(Request.cmd(Command.FUNCTION).arg("FLUSH")));
        routing = new ShardRouting(RoutingRedis.of(redis));
    }

    @AfterEach
    void close() throws Exception {
        redis.close();
        await(vertx.close());
    }

    static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
    }

    private String add(String stream, int shard, long epoch, String value) throws Exception {
        AddResult r = await(routing.add(stream, shard, epoch, List.of("*", "v", value)));
        assertThat(r).isInstanceOf(AddResult.Written.class);
        return ((AddResult.Written) r).id();
    }

    private java.util.Map<String, String> routingHash(String stream, int shard) throws Exception {
        Response r = await(redis.send(Request.cmd(Command.HGETALL).arg(ShardRouting.routingKey(stream, shard))));
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        for (String k : r.getKeys()) {
            out.put(k, r.get(k).toString());
        }
        return out;
    }

    private long length(String stream, int shard) throws Exception {
        return await(redis.send(Request.cmd(Command.XLEN).arg(ShardRouting.shardKey(stream, shard)))).toLong();
    }

    @Test
    void theFirstFlipRecordsTheLastIdAndARepeatedFlipChangesNothing() throws Exception {
        add("orders", 3, 1, "a");
        String last = add("orders", 3, 1, "b");

        assertThat(await(routing.flip("orders", 3, 2))).as("the library is loaded on first use").isEqualTo(last);
        assertThat(routingHash("orders", 3)).containsEntry("epoch", "2").containsEntry("cutover:2", last);

        add("orders", 3, 2, "c");
        assertThat(await(routing.flip("orders", 3, 2))).as("a repeated flip answers the stored cutover").isEqualTo(last);
        assertThat(await(routing.flip("orders", 3, 1))).as("a flip to an older epoch changes nothing").isEqualTo("0-0");
        assertThat(routingHash("orders", 3)).containsEntry("epoch", "2").containsEntry("cutover:2", last).hasSize(2);
    }

    @Test
    void aFlipOfAnEmptyOrMissingStreamRecordsZero() throws Exception {
        assertThat(await(routing.flip("empty", 0, 2))).isEqualTo("0-0");
        assertThat(routingHash("empty", 0)).containsEntry("cutover:2", "0-0").containsEntry("epoch", "2");
        assertThat(await(redis.send(Request.cmd(Command.EXISTS).arg(ShardRouting.shardKey("empty", 0)))).toInteger())
                .as("a flip creates no stream").isZero();
    }

    /** The cutover is the last entry there is: entries deleted or trimmed are read by nobody and hold no barrier. */
    @Test
    void aFlipRecordsTheLastEntryThereIs() throws Exception {
        String first = add("acked", 1, 1, "a");
        String second = add("acked", 1, 1, "b");
        await(redis.send(Request.cmd(Command.XDEL).arg(ShardRouting.shardKey("acked", 1)).arg(second)));
        assertThat(await(routing.flip("acked", 1, 2))).isEqualTo(first);

        String only = add("trimmed", 1, 1, "a");
        await(redis.send(Request.cmd(Command.XDEL).arg(ShardRouting.shardKey("trimmed", 1)).arg(only)));
        assertThat(await(routing.flip("trimmed", 1, 2))).as("every entry deleted").isEqualTo("0-0");
    }

    @Test
    void aStaleWriteIsRefusedWithNothingWritten() throws Exception {
        add("orders", 5, 1, "old");
        await(routing.flip("orders", 5, 3));

        AddResult r = await(routing.add("orders", 5, 2, List.of("*", "v", "stale")));

        assertThat(r).isEqualTo(new AddResult.Refused(new StaleRouting("orders", 5, 3)));
        assertThat(length("orders", 5)).isEqualTo(1);
        assertThat(routingHash("orders", 5)).containsEntry("epoch", "3");
        add("orders", 5, 3, "current");
        assertThat(length("orders", 5)).isEqualTo(2);
    }

    @Test
    void aNewerWriteFlipsTheShardThenWrites() throws Exception {
        String before = add("orders", 7, 1, "old");

        String after = add("orders", 7, 2, "new");

        assertThat(routingHash("orders", 7)).containsEntry("epoch", "2").containsEntry("cutover:2", before);
        assertThat(after).isGreaterThan(before);
        assertThat(await(routing.flip("orders", 7, 2))).as("the leader's flip finds it done").isEqualTo(before);
        assertThat(await(routing.add("orders", 7, 1, List.of("*", "v", "late")))).isInstanceOf(AddResult.Refused.class);
    }

    @Test
    void addsInOrderAnswerEachOutcomeAndACapIsPassedToXadd() throws Exception {
        await(routing.flip("mixed", 1, 2));
        List<Request> adds = List.of(
                routing.addRequest("mixed", 0, 2, List.of("MAXLEN", "~", "1000", "*", "n", "1")),
                routing.addRequest("mixed", 1, 1, List.of("*", "n", "2")),
                routing.addRequest("mixed", 0, 2, List.of("*", "n", "3")));

        List<AsyncResult<AddResult>> out = await(routing.addInOrder(adds));

        assertThat(out).hasSize(3).allMatch(AsyncResult::succeeded);
        assertThat(out.get(0).result()).isInstanceOf(AddResult.Written.class);
        assertThat(out.get(1).result()).isEqualTo(new AddResult.Refused(new StaleRouting("mixed", 1, 2)));
        assertThat(out.get(2).result()).isInstanceOf(AddResult.Written.class);
        assertThat(length("mixed", 0)).isEqualTo(2);
        assertThat(length("mixed", 1)).isZero();
    }

    /** Pipelined adds that all find the library missing (a new or restarted Redis) load it and are sent again, in order. */
    @Test
    void addsInOrderLoadTheMissingLibraryAndAreSentAgainInOrder() throws Exception {
        List<AsyncResult<AddResult>> out = await(routing.addInOrder(List.of(
                routing.addRequest("fresh", 0, 1, List.of("*", "n", "1")),
                routing.addRequest("fresh", 0, 1, List.of("*", "n", "2")))));

        assertThat(out).allMatch(r -> r.succeeded() && r.result() instanceof AddResult.Written);
        Response entries = await(redis.send(Request.cmd(Command.XRANGE).arg(ShardRouting.shardKey("fresh", 0)).arg("-").arg("+")));
        assertThat(entries.size()).isEqualTo(2);
        assertThat(entries.get(0).get(1).get(1).toString()).isEqualTo("1");
        assertThat(entries.get(1).get(1).get(1).toString()).isEqualTo("2");
    }

    @Test
    void theErrorParsesAndAnOtherErrorIsNotARefusal() {
        assertThat(StaleRouting.parse("STALE_ROUTING orders.v2 shard=12 epoch=4"))
                .contains(new StaleRouting("orders.v2", 12, 4));
        assertThat(new StaleRouting("s", 1, 2)).hasToString("STALE_ROUTING s shard=1 epoch=2");
        assertThat(StaleRouting.parse("ERR wrong number of arguments")).isEmpty();
    }

    @Test
    void aBadXaddFailsAsItself() throws Exception {
        Future<AddResult> bad = routing.add("orders", 0, 1, List.of("*", "odd"));
        assertThat(bad.toCompletionStage().toCompletableFuture().handle((r, e) -> e).get(15, TimeUnit.SECONDS))
                .hasMessageContaining("Wrong number of args");
    }

    @Test
    void aMoveAddsAndRemovesInOneStepOrIsRefusedWithNothingDone() throws Exception {
        String letter = await(redis.send(Request.cmd(Command.XADD).arg("orders.dlq").arg("*").arg("v").arg("1"))).toString();
        await(routing.flip("orders", 2, 2));

        assertThat(await(routing.move("orders", 2, 1, "orders.dlq", letter, java.util.Map.of("v", "1"))))
                .contains(new AddResult.Refused(new StaleRouting("orders", 2, 2)));
        assertThat(await(redis.send(Request.cmd(Command.XLEN).arg("orders.dlq"))).toLong()).as("still there").isEqualTo(1);

        assertThat(await(routing.move("orders", 2, 2, "orders.dlq", letter, java.util.Map.of("v", "1"))).orElseThrow())
                .isInstanceOf(AddResult.Written.class);
        assertThat(await(redis.send(Request.cmd(Command.XLEN).arg("orders.dlq"))).toLong()).isZero();
        assertThat(length("orders", 2)).isEqualTo(1);
        assertThat(await(routing.move("orders", 2, 2, "orders.dlq", letter, java.util.Map.of("v", "1"))))
                .as("gone: nothing done").isEmpty();
        assertThat(length("orders", 2)).isEqualTo(1);
    }
}
