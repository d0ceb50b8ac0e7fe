package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MemberHarness.DLQ;
import static io.shardline.runtime.shard.ShardTesting.add;
import static io.shardline.runtime.shard.ShardTesting.await;
import static io.shardline.runtime.shard.ShardTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.AsyncHandler;
import io.shardline.api.handler.NonRetriableException;
import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A {@link NonRetriableException} is never retried: the batch is split at once (no backoff, no further attempt
 * of the whole batch), and the failing record is dead-lettered on its first attempt alone. The retry backoff is
 * 30 s here, so any retry would miss the 10 s deadlines.
 */
@RedisTest
class NonRetriableTest {

    private static final ShardId SHARD = new ShardId("orders", 2);

    private MemberHarness h;

    @BeforeEach
    void setUp(RedisServer server) {
        h = new MemberHarness(server.uri());
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    private static ConsumerSettings settings() {
        return ConsumerSettings.defaults(MemberHarness.GROUP, DLQ).withConcurrency(1, 5).withRetries(3, 30_000, 30_000, 5_000);
    }

    @Test
    void aSyncHandlersNonRetriableRecordIsDeadLetteredWithoutRetries() {
        h.own(List.of(SHARD), "A", 1);
        List<String> ids = add(h.redis, SHARD, 5);
        Map<String, Integer> attempts = new ConcurrentHashMap<>();
        RecordingHandler handler = new RecordingHandler();
        handler.behaviour = (r, ctx) -> {
            attempts.merge(r.entryId(), 1, Integer::sum);
            if (r.entryId().equals(ids.get(2))) {
                throw new NonRetriableException("malformed");
            }
        };
        await(h.member("A", handler, settings()).acquire(SHARD, 1));

        waitUntil("the failing record dead-lettered", 10_000, () -> h.length(DLQ) == 1);
        waitUntil("all acknowledged", 10_000, () -> h.pending(SHARD) == 0);
        assertThat(handler.handled(SHARD)).containsExactly(ids.get(0), ids.get(1), ids.get(0), ids.get(1), ids.get(3), ids.get(4));
        assertThat(attempts.get(ids.get(2))).as("once in the batch, once alone").isEqualTo(2);
        assertDeadLetter(ids.get(2));
    }

    @Test
    void anAsyncStageFailedWithAWrappedNonRetriableExceptionIsNotRetried() {
        h.own(List.of(SHARD), "A", 1);
        List<String> ids = add(h.redis, SHARD, 5);
        Map<String, Integer> attempts = new ConcurrentHashMap<>();
        List<String> handled = new CopyOnWriteArrayList<>();
        AsyncHandler handler = new AsyncHandler() {
            @Override
            public CompletionStage<Void> handleBatch(List<StreamRecord> records, ShardContext shard) {
                // supplyAsync wraps what the task throws in a CompletionException.
                return CompletableFuture.runAsync(() -> {
                    for (StreamRecord r : records) {
                        attempts.merge(r.entryId(), 1, Integer::sum);
                        if (r.entryId().equals(ids.get(2))) {
                            throw new NonRetriableException("malformed");
                        }
                        handled.add(r.entryId());
                    }
                });
            }
        };
        await(h.member("A", handler, settings()).acquire(SHARD, 1));

        waitUntil("the failing record dead-lettered", 10_000, () -> h.length(DLQ) == 1);
        waitUntil("all acknowledged", 10_000, () -> h.pending(SHARD) == 0);
        assertThat(attempts.get(ids.get(2))).as("once in the batch, once alone").isEqualTo(2);
        assertThat(attempts.get(ids.get(0))).as("the batch was not retried as a whole").isEqualTo(2);
        assertThat(handled).containsExactly(ids.get(0), ids.get(1), ids.get(0), ids.get(1), ids.get(3), ids.get(4));
        assertDeadLetter(ids.get(2));
    }

    private void assertDeadLetter(String id) {
        Response dlq = await(h.redis.send(Request.cmd(Command.XRANGE).arg(DLQ).arg("-").arg("+")));
        Response fields = dlq.get(0).get(1);
        Map<String, String> map = new java.util.HashMap<>();
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            map.put(fields.get(i).toString(), fields.get(i + 1).toString());
        }
        assertThat(map).containsEntry("__dlq.id", id).containsEntry("__dlq.attempts", "1");
        assertThat(map.get("__dlq.error")).startsWith(NonRetriableException.class.getName() + ": malformed");
    }
}
