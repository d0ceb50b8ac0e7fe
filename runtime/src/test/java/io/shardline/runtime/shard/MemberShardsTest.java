package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MemberHarness.DLQ;
import static io.shardline.runtime.shard.MemberHarness.settings;
import static io.shardline.runtime.shard.ShardTesting.add;
import static io.shardline.runtime.shard.ShardTesting.await;
import static io.shardline.runtime.shard.ShardTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.NonRetriableException;
import io.shardline.api.handler.ShardId;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RedisTest
class MemberShardsTest {

    private MemberHarness h;

    @BeforeEach
    void setUp(RedisServer server) {
        h = new MemberHarness(server.uri());
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    private static List<ShardId> shards(int n) {
        return IntStream.range(0, n).mapToObj(i -> new ShardId("orders", i)).toList();
    }

    @Test
    void everyRecordIsHandledOnceInShardOrderAndAcknowledged() {
        List<ShardId> shards = shards(6);
        h.own(shards, "A", 1);
        RecordingHandler handler = new RecordingHandler();
        MemberShards a = h.member("A", handler, settings(2, 7));
        Map<ShardId, List<String>> written = new java.util.HashMap<>();
        shards.forEach(s -> written.put(s, new ArrayList<>(add(h.redis, s, 30))));
        shards.forEach(s -> await(a.acquire(s, 1)));
        shards.forEach(s -> written.get(s).addAll(add(h.redis, s, 30))); // some arrive while reading

        waitUntil("all 360 records handled", 20_000, () -> handler.total() == 360);
        for (ShardId s : shards) {
            assertThat(handler.handled(s)).as("shard %s in order, each once", s).containsExactlyElementsOf(written.get(s));
            waitUntil("acks of " + s, 5_000, () -> h.pending(s) == 0);
        }
        assertThat(handler.maxConcurrent.get()).isLessThanOrEqualTo(2);
        assertThat(a.phase(shards.get(0))).contains(ShardPhase.READING);
        assertThat(handler.events).contains("assigned orders:0@1");
    }

    /**
     * Local workers bound handler calls, not Redis steps: while both workers are held by handler calls that do not
     * return, every other shard still reads its record (it is pending to the member), and no third call starts.
     */
    @Test
    void handlerCallsAreBoundedByTheWorkersButReadsDoNotWaitForAWorker() throws Exception {
        List<ShardId> shards = shards(6);
        h.own(shards, "A", 1);
        CountDownLatch release = new CountDownLatch(1);
        RecordingHandler handler = new RecordingHandler();
        handler.behaviour = (r, ctx) -> release.await(30, TimeUnit.SECONDS);
        MemberShards a = h.member("A", handler, settings(2, 10));
        shards.forEach(s -> await(a.acquire(s, 1)));
        shards.forEach(s -> add(h.redis, s, 1));

        waitUntil("both workers busy in the handler", 10_000, () -> handler.concurrent.get() == 2);
        waitUntil("every shard read its record meanwhile", 10_000, () -> shards.stream().allMatch(s -> h.pending(s) == 1));
        assertThat(handler.concurrent.get()).as("no third handler call while both workers are held").isEqualTo(2);
        release.countDown();
        waitUntil("all handled and acknowledged", 10_000,
                () -> handler.total() == 6 && shards.stream().allMatch(s -> h.pending(s) == 0));
        assertThat(handler.maxConcurrent.get()).isEqualTo(2);
    }

    @Test
    void takeoverAfterAnOwnerDiesLosesNothingAndTheOldOwnersAcksAreRefused() throws Exception {
        ShardId s = new ShardId("orders", 0);
        h.own(List.of(s), "A", 1);
        List<String> ids = add(h.redis, s, 50);
        CountDownLatch stuck = new CountDownLatch(1);
        RecordingHandler handlerA = new RecordingHandler();
        handlerA.behaviour = (r, ctx) -> {
            if (r.entryId().equals(ids.get(20))) {
                stuck.await(); // A "dies" here: it never gets further on its own
            }
        };
        MemberShards a = h.member("A", handlerA, settings(1, 10));
        await(a.acquire(s, 1));
        waitUntil("A handled 20 records", 10_000, () -> handlerA.handled(s).size() == 20);
        waitUntil("A acked them", 5_000, () -> h.pending(s) == 30 || h.pending(s) == 10); // the batch of 20..29 is pending

        // The coordinator fences A (lease expired) and hands the shard to B under epoch 2.
        await(h.commands.setOwner(s, MemberHarness.GROUP, "B", 2));
        List<String> more = add(h.redis, s, 10);
        RecordingHandler handlerB = new RecordingHandler();
        MemberShards b = h.member("B", handlerB, settings(1, 10));
        await(b.acquire(s, 2));

        List<String> expectedB = new ArrayList<>(ids.subList(20, 50));
        expectedB.addAll(more);
        waitUntil("B handled everything A had not acknowledged", 10_000, () -> handlerB.handled(s).size() >= expectedB.size());
        assertThat(handlerB.handled(s)).containsExactlyElementsOf(expectedB);
        waitUntil("B acked", 5_000, () -> h.pending(s) == 0);

        stuck.countDown(); // A wakes up; its ack is refused and it stops the shard locally
        waitUntil("A fenced", 10_000, () -> h.fenced.contains("A orders:0@1"));
        assertThat(a.ownedShards()).isEmpty();
        waitUntil("A's handler told", 5_000, () -> handlerA.events.contains("revoked orders:0@1"));
        assertThat(b.ownedShards()).containsExactly(s);
    }

    @Test
    void failingRecordsAreRetriedThenDeadLetteredAndTheRestGoesOn() {
        ShardId s = new ShardId("orders", 1);
        h.own(List.of(s), "A", 3);
        List<String> ids = add(h.redis, s, 10);
        java.util.Map<String, Integer> attempts = new java.util.concurrent.ConcurrentHashMap<>();
        RecordingHandler handler = new RecordingHandler();
        handler.behaviour = (r, ctx) -> {
            int n = attempts.merge(r.entryId(), 1, Integer::sum);
            if (r.entryId().equals(ids.get(3))) {
                throw new IllegalStateException("boom " + n);
            }
            if (r.entryId().equals(ids.get(6))) {
                throw new NonRetriableException("malformed");
            }
        };
        MemberShards a = h.member("A", handler, settings(1, 5));
        await(a.acquire(s, 3));

        waitUntil("two dead letters", 15_000, () -> h.length(DLQ) == 2);
        waitUntil("all acked", 5_000, () -> h.pending(s) == 0);
        List<String> expected = new ArrayList<>(ids);
        expected.remove(ids.get(6));
        expected.remove(ids.get(3));
        assertThat(new TreeSet<>(handler.handled(s))).containsExactlyElementsOf(new TreeSet<>(expected));

        Response dlq = await(h.redis.send(Request.cmd(Command.XRANGE).arg(DLQ).arg("-").arg("+")));
        Map<String, String> first = fields(dlq.get(0).get(1));
        assertThat(first).containsEntry("n", "3").containsEntry("__dlq.stream", "orders").containsEntry("__dlq.shard", "1")
                .containsEntry("__dlq.id", ids.get(3)).containsEntry("__dlq.listener", "orders-listener")
                .containsEntry("__dlq.group", "g").containsEntry("__dlq.member", "A").containsEntry("__dlq.epoch", "3")
                .containsEntry("__dlq.attempts", "3");
        assertThat(first.get("__dlq.error")).isEqualTo("java.lang.IllegalStateException: boom 6");
        Map<String, String> second = fields(dlq.get(1).get(1));
        assertThat(second).containsEntry("__dlq.id", ids.get(6)).containsEntry("__dlq.attempts", "1");
        assertThat(second.get("__dlq.error")).contains("NonRetriableException: malformed");
        // 3 attempts of the whole batch of 5, then 3 of the record alone.
        assertThat(attempts.get(ids.get(3))).isEqualTo(6);
    }

    @Test
    void aHandlerRunningPastItsTimeoutCountsAsFailedAndDoesNotStallOtherShards() {
        ShardId slow = new ShardId("orders", 0);
        ShardId fast = new ShardId("orders", 1);
        h.own(List.of(slow, fast), "A", 1);
        RecordingHandler handler = new RecordingHandler();
        handler.behaviour = (r, ctx) -> {
            if (r.shard().equals(slow)) {
                Thread.sleep(60_000); // hangs until interrupted by the timeout
            }
        };
        ConsumerSettings settings = settings(2, 10).withRetries(2, 10, 20, 300);
        MemberShards a = h.member("A", handler, settings);
        add(h.redis, slow, 1);
        await(a.acquire(slow, 1));
        await(a.acquire(fast, 1));
        add(h.redis, fast, 20);
        waitUntil("the fast shard is served while the slow one hangs", 10_000, () -> handler.handled(fast).size() == 20);
        waitUntil("the hanging record is dead-lettered after 2 timeouts", 10_000, () -> h.length(DLQ) == 1);
        Response dlq = await(h.redis.send(Request.cmd(Command.XRANGE).arg(DLQ).arg("-").arg("+")));
        assertThat(fields(dlq.get(0).get(1)).get("__dlq.error")).contains("TimeoutException").contains("handler.timeout.ms=300");
    }

    @Test
    void pausedShardsAndPausedMembersStopReadingUntilResumed() {
        List<ShardId> shards = shards(2);
        h.own(shards, "A", 1);
        RecordingHandler handler = new RecordingHandler();
        MemberShards a = h.member("A", handler, settings(2, 10));
        shards.forEach(s -> await(a.acquire(s, 1)));
        await(a.pause(shards.get(0)));
        add(h.redis, shards.get(0), 5);
        add(h.redis, shards.get(1), 5);
        waitUntil("shard 1 served", 10_000, () -> handler.handled(shards.get(1)).size() == 5);
        assertThat(handler.handled(shards.get(0))).isEmpty();
        assertThat(a.ownedShards()).containsExactlyElementsOf(shards); // ownership stays

        await(a.resume(shards.get(0)));
        waitUntil("shard 0 served after resume", 10_000, () -> handler.handled(shards.get(0)).size() == 5);

        await(a.pauseAll());
        add(h.redis, shards.get(1), 5);
        await(a.resume(shards.get(1))); // a shard resume does not override the member pause
        RecordingHandler probe = handler;
        assertThat(probe.handled(shards.get(1))).hasSize(5);
        await(a.resumeAll());
        waitUntil("shard 1 served after resumeAll", 10_000, () -> handler.handled(shards.get(1)).size() == 10);
    }

    @Test
    void aBackloggedShardDoesNotStarveTheOthers() {
        List<ShardId> shards = shards(4);
        h.own(shards, "A", 1);
        ShardId hot = shards.get(0);
        pipelineAdd(hot, 3_000);
        RecordingHandler handler = new RecordingHandler();
        MemberShards a = h.member("A", handler, settings(1, 10));
        shards.forEach(s -> await(a.acquire(s, 1)));
        waitUntil("the hot shard is being served", 10_000, () -> handler.handled(hot).size() >= 50);
        for (ShardId s : shards.subList(1, 4)) {
            add(h.redis, s, 1);
        }
        waitUntil("every cold shard served", 10_000, () -> shards.subList(1, 4).stream().allMatch(s -> handler.handled(s).size() == 1));
        assertThat(handler.handled(hot).size()).as("cold shards were served long before the backlog drained").isLessThan(2_000);
        waitUntil("backlog drained", 30_000, () -> handler.handled(hot).size() == 3_000);
    }

    /**
     * A backlogged shard lets keeping-up shards' reads go first, but not their handler calls: a keeping-up shard
     * whose handler hangs does not hold up the backlog.
     */
    @Test
    void aHangingHandlerOnAKeepingUpShardDoesNotHoldUpABacklog() {
        List<ShardId> shards = shards(2);
        h.own(shards, "A", 1);
        ShardId slow = shards.get(0);
        ShardId hot = shards.get(1);
        CountDownLatch release = new CountDownLatch(1);
        RecordingHandler handler = new RecordingHandler();
        handler.behaviour = (r, ctx) -> {
            if (r.shard().equals(slow)) {
                release.await(60, TimeUnit.SECONDS);
            }
        };
        MemberShards a = h.member("A", handler, settings(2, 10));
        shards.forEach(s -> await(a.acquire(s, 1)));
        add(h.redis, slow, 1);
        waitUntil("the slow shard's handler hangs", 10_000, () -> handler.concurrent.get() == 1);
        pipelineAdd(hot, 2_000);
        waitUntil("the backlog drains while the other handler hangs", 30_000, () -> handler.handled(hot).size() == 2_000);
        assertThat(handler.handled(slow)).isEmpty();
        release.countDown();
        waitUntil("the slow record handled", 10_000, () -> handler.handled(slow).size() == 1);
    }

    @Test
    void releaseFinishesTheBatchInFlightThenRevokes() throws Exception {
        ShardId s = new ShardId("orders", 2);
        h.own(List.of(s), "A", 1);
        add(h.redis, s, 5);
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        RecordingHandler handler = new RecordingHandler();
        handler.behaviour = (r, ctx) -> {
            inHandler.countDown();
            proceed.await(10, TimeUnit.SECONDS);
        };
        MemberShards a = h.member("A", handler, settings(1, 10));
        await(a.acquire(s, 1));
        assertThat(inHandler.await(10, TimeUnit.SECONDS)).isTrue();
        io.vertx.core.Future<Void> released = a.release(s);
        assertThat(released.isComplete()).isFalse();
        proceed.countDown();
        await(released);
        assertThat(handler.handled(s)).hasSize(5);
        assertThat(h.pending(s)).isZero();
        assertThat(a.ownedShards()).isEmpty();
        assertThat(handler.events).containsExactly("assigned orders:2@1", "revoked orders:2@1");
        await(a.release(s)); // idempotent
    }

    @Test
    void abandonedReleaseLeavesTheBatchForTheNextOwner() throws Exception {
        ShardId s = new ShardId("orders", 3);
        h.own(List.of(s), "A", 1);
        List<String> ids = add(h.redis, s, 3);
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        RecordingHandler handler = new RecordingHandler();
        handler.behaviour = (r, ctx) -> {
            inHandler.countDown();
            never.await(10, TimeUnit.SECONDS);
        };
        ConsumerSettings abandon = settings(1, 10).withModes(AckMode.ACK, ConsumerSettings.ReleaseMode.ABANDON);
        MemberShards a = h.member("A", handler, abandon);
        await(a.acquire(s, 1));
        assertThat(inHandler.await(10, TimeUnit.SECONDS)).isTrue();
        await(a.release(s));
        assertThat(h.pending(s)).isEqualTo(3);

        await(h.commands.setOwner(s, MemberHarness.GROUP, "B", 2));
        RecordingHandler handlerB = new RecordingHandler();
        MemberShards b = h.member("B", handlerB, settings(1, 10).withModes(AckMode.ACK_DELETE, ConsumerSettings.ReleaseMode.FINISH));
        await(b.acquire(s, 2));
        waitUntil("B handled A's abandoned batch", 10_000, () -> handlerB.handled(s).size() == 3);
        assertThat(handlerB.handled(s)).containsExactlyElementsOf(ids);
        waitUntil("acked and deleted", 5_000, () -> h.pending(s) == 0 && h.length(s.key()) == 0);
        never.countDown();
    }

    private void pipelineAdd(ShardId shard, int n) {
        io.vertx.redis.client.RedisConnection connection = await(h.redis.connectDedicated());
        try {
            for (int from = 0; from < n; from += 1_000) {
                List<Request> batch = new ArrayList<>();
                for (int i = from; i < Math.min(n, from + 1_000); i++) {
                    batch.add(Request.cmd(Command.XADD).arg(shard.key()).arg("*").arg("n").arg(i));
                }
                await(connection.batch(batch));
            }
        } finally {
            connection.close();
        }
    }

    private static Map<String, String> fields(Response raw) {
        Map<String, String> fields = new java.util.LinkedHashMap<>();
        for (int i = 0; i + 1 < raw.size(); i += 2) {
            fields.put(raw.get(i).toString(), raw.get(i + 1).toString());
        }
        return fields;
    }

}
