package io.shardline.runtime.retention;

import static io.shardline.runtime.testing.Await.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The retention script on a real redis-server (docs/operations.md, "Retention"): it trims to the retention bound,
 * never past the oldest entry any consumer group still needs (undelivered or pending), whoever created the group,
 * and at most its budget per call. Entry ids are written explicitly ({@code <ms>-0}) so ages are exact.
 */
@RedisTest
class RetentionTrimTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final ShardId shard = new ShardId("ret-" + UUID.randomUUID(), 0);
    private Vertx vertx;
    private RedisClient redis;
    private RetentionTrim trim;

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(3)), WAIT);
        trim = new RetentionTrim(redis);
    }

    @AfterEach
    void stop() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    @Test
    void trimsToTheMaximumLengthWhenEveryGroupHasAcknowledged() {
        add(1, 100);
        group("a", "0");
        readAndAck("a", 100);

        RetentionTrim.Outcome outcome = result(trim.trim(shard, new RetentionPolicy(20, 0), 0, 1_000), WAIT);

        assertEquals(80, outcome.trimmed());
        assertEquals("81-0", outcome.bound());
        assertFalse(outcome.heldBack());
        assertEquals(20, len());
    }

    @Test
    void aGroupThatHasNotReadHoldsRetentionBackUntilItCatchesUp() {
        add(1, 100);
        group("fast", "0");
        readAndAck("fast", 100);
        group("stopped", "0");
        readAndAck("stopped", 10); // delivered and acknowledged entries 1..10 only

        RetentionTrim.Outcome held = result(trim.trim(shard, new RetentionPolicy(20, 0), 0, 1_000), WAIT);

        assertEquals(10, held.trimmed());
        assertEquals("stopped", held.holder());
        assertEquals("10-1", held.trimmedTo(), "everything up to its last delivered entry 10-0 may go");
        assertEquals(70, held.heldEntries(), "entries 11..80 retention would trim are kept for 'stopped'");
        assertEquals("11-0", held.oldestHeld());
        assertEquals(81 - 11, held.heldBackMs(), "the oldest held back entry 11-0 is 70 ms older than the bound");
        assertEquals(90, len());

        readAndAck("stopped", 90);
        RetentionTrim.Outcome released = result(trim.trim(shard, new RetentionPolicy(20, 0), 0, 1_000), WAIT);

        assertFalse(released.heldBack());
        assertEquals(70, released.trimmed());
        assertEquals(20, len());
    }

    @Test
    void aPendingEntryIsNeverTrimmedAndAGroupShardlineDidNotCreateCounts() {
        add(1, 50);
        group("foreign", "0");
        result(redis.send(Request.cmd(Command.XREADGROUP).arg("GROUP").arg("foreign").arg("c").arg("COUNT").arg(30)
                .arg("STREAMS").arg(shard.key()).arg(">")), WAIT); // delivered 1..30, none acknowledged

        RetentionTrim.Outcome outcome = result(trim.trim(shard, new RetentionPolicy(5, 0), 0, 1_000), WAIT);

        assertEquals(0, outcome.trimmed());
        assertEquals("foreign", outcome.holder());
        assertEquals("1-0", outcome.trimmedTo(), "the oldest pending entry bounds the trim");
        assertEquals(50, len());
    }

    @Test
    void trimsByAgeAndAtMostTheBudgetPerCall() {
        add(1, 100);
        group("a", "0");
        readAndAck("a", 100);

        RetentionTrim.Outcome first = result(trim.trim(shard, new RetentionPolicy(0, 10), 100, 30), WAIT);
        assertEquals(30, first.trimmed(), "the budget bounds one call");
        RetentionTrim.Outcome second = result(trim.trim(shard, new RetentionPolicy(0, 10), 100, 1_000), WAIT);
        assertEquals(59, second.trimmed(), "entries older than now - 10 ms = 90 go");
        assertEquals(11, len());
    }

    @Test
    void aMissingStreamOrOneWithinItsRetentionIsLeftAlone() {
        RetentionTrim.Outcome missing = result(trim.trim(shard, new RetentionPolicy(5, 0), 0, 100), WAIT);
        assertEquals(0, missing.trimmed());
        assertNull(missing.bound());

        add(1, 3);
        RetentionTrim.Outcome within = result(trim.trim(shard, new RetentionPolicy(5, 1_000), 500, 100), WAIT);
        assertEquals(0, within.trimmed());
        assertTrue(within.bound() == null && len() == 3);
    }

    private void add(int from, int to) {
        for (int i = from; i <= to; i++) {
            result(redis.send(Request.cmd(Command.XADD).arg(shard.key()).arg(i + "-0").arg("n").arg(i)), WAIT);
        }
    }

    private void group(String name, String from) {
        result(redis.send(Request.cmd(Command.XGROUP).arg("CREATE").arg(shard.key()).arg(name).arg(from)), WAIT);
    }

    private void readAndAck(String group, int count) {
        var reply = result(redis.send(Request.cmd(Command.XREADGROUP).arg("GROUP").arg(group).arg("c")
                .arg("COUNT").arg(count).arg("STREAMS").arg(shard.key()).arg(">")), WAIT);
        if (reply == null) {
            return;
        }
        Request ack = Request.cmd(Command.XACK).arg(shard.key()).arg(group);
        reply.get(0).get(1).forEach(entry -> ack.arg(entry.get(0).toString()));
        result(redis.send(ack), WAIT);
    }

    private long len() {
        return result(redis.send(Request.cmd(Command.XLEN).arg(shard.key())), WAIT).toLong();
    }
}
