package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MemberHarness.DLQ;
import static io.shardline.runtime.shard.MemberHarness.GROUP;
import static io.shardline.runtime.shard.ShardTesting.add;
import static io.shardline.runtime.shard.ShardTesting.await;
import static io.shardline.runtime.shard.ShardTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code max.deliveries} on a real Redis: a record whose Redis delivery count has passed it is dead-lettered with
 * its delivery count and the last error noted in Redis, without calling the handler; the records around it are
 * handled (pending entries are replayed one by one, so their counts rise only with their own deliveries). And the
 * delivery count a handler sees rises with each in-process retry.
 */
@RedisTest
class PoisonRecordTest {

    private static final ShardId SHARD = new ShardId("orders", 1);

    private MemberHarness h;

    @BeforeEach
    void setUp(RedisServer server) {
        h = new MemberHarness(server.uri());
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void aRecordDeliveredMoreThanMaxDeliveriesIsDeadLetteredWithoutCallingTheHandler() {
        h.own(List.of(SHARD), "A", 1);
        List<String> ids = add(h.redis, SHARD, 4);
        // A worker "dead" read all four (delivery 1) and died; records 1 and 2 were delivered once more each and their
        // workers died too (XCLAIM counts a delivery). Record 1's handler had failed once before: its error is noted.
        await(h.redis.send(Request.cmd(Command.XREADGROUP).arg("GROUP").arg(GROUP).arg("dead").arg("COUNT").arg(10)
                .arg("STREAMS").arg(SHARD.key()).arg(">")));
        for (String id : List.of(ids.get(1), ids.get(2))) {
            await(h.redis.send(Request.cmd(Command.XCLAIM).arg(SHARD.key()).arg(GROUP).arg("dead").arg(0).arg(id)));
        }
        await(h.commands.noteError(SHARD, GROUP, List.of(ids.get(1)), "java.lang.IllegalStateException: boom"));

        Map<String, Integer> seen = new ConcurrentHashMap<>();
        RecordingHandler handler = new RecordingHandler();
        handler.behaviour = (r, ctx) -> seen.put(r.entryId(), r.deliveryCount());
        ConsumerSettings settings = MemberHarness.settings(1, 10).withMaxDeliveries(2);
        await(h.member("A", handler, settings).acquire(SHARD, 1));

        waitUntil("records 1 and 2 dead-lettered and every record acknowledged (max.deliveries=2)", 10_000,
                () -> h.length(DLQ) == 2 && h.pending(SHARD) == 0);
        assertThat(seen).as("the handler saw only the others, each on its second delivery")
                .isEqualTo(Map.of(ids.get(0), 2, ids.get(3), 2));
        List<Map<String, String>> letters = deadLetters();
        assertThat(letters.get(0)).containsEntry("__dlq.id", ids.get(1)).containsEntry("__dlq.deliveries", "3")
                .containsEntry("__dlq.attempts", "0").containsEntry("n", "1");
        assertThat(letters.get(0).get("__dlq.error")).startsWith("max.deliveries=2 reached: delivered 3 times")
                .endsWith("last handler error: java.lang.IllegalStateException: boom");
        assertThat(letters.get(1)).containsEntry("__dlq.id", ids.get(2)).containsEntry("__dlq.deliveries", "3");
        assertThat(letters.get(1).get("__dlq.error")).contains("no handler error was recorded");
        assertThat(await(h.commands.lastError(SHARD, GROUP, ids.get(1)))).as("dropped once written").isEmpty();
    }

    @Test
    void theDeliveryCountRisesWithEachInProcessRetryAndTheErrorIsNotedInRedis() {
        h.own(List.of(SHARD), "A", 1);
        List<String> ids = add(h.redis, SHARD, 2);
        List<String> calls = new CopyOnWriteArrayList<>();
        RecordingHandler handler = new RecordingHandler();
        handler.behaviour = (r, ctx) -> {
            calls.add(r.entryId() + "#" + r.deliveryCount());
            if (r.deliveryCount() < 3) {
                throw new IllegalStateException("not yet " + r.deliveryCount());
            }
        };
        await(h.member("A", handler, MemberHarness.settings(1, 10)).acquire(SHARD, 1));

        waitUntil("both records handled on the third attempt (max.attempts=3)", 10_000, () -> h.pending(SHARD) == 0
                && calls.size() == 4);
        assertThat(calls).containsExactly(ids.get(0) + "#1", ids.get(0) + "#2", ids.get(0) + "#3", ids.get(1) + "#3");
        assertThat(h.length(DLQ)).isZero();
        assertThat(await(h.commands.lastError(SHARD, GROUP, ids.get(1))))
                .as("noted for every record of the failed batch").contains("java.lang.IllegalStateException: not yet 2");
    }

    private List<Map<String, String>> deadLetters() {
        Response range = await(h.redis.send(Request.cmd(Command.XRANGE).arg(DLQ).arg("-").arg("+")));
        return range.stream().map(entry -> {
            Map<String, String> map = new HashMap<>();
            Response fields = entry.get(1);
            for (int i = 0; i + 1 < fields.size(); i += 2) {
                map.put(fields.get(i).toString(), fields.get(i + 1).toString());
            }
            return map;
        }).toList();
    }
}
