package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MemberHarness.GROUP;
import static io.shardline.runtime.shard.MemberHarness.settings;
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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code ack.linger.ms}: a shard that keeps up holds the acknowledgement of its last handled batch until its next read
 * (which carries it) or the linger runs out; a pause or a release sends it at once.
 */
@RedisTest
class AckLingerTest {

    private static final ShardId SHARD = new ShardId("orders", 0);
    private MemberHarness h;
    private final RecordingHandler handler = new RecordingHandler();

    @BeforeEach
    void setUp(RedisServer server) {
        h = new MemberHarness(server.uri());
        h.own(List.of(SHARD), "A", 1);
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void theAcknowledgementOfAHandledBatchGoesWithTheShardsNextRead() {
        MemberShards a = h.member("A", handler, settings(2, 10).withAckLinger(60_000));
        await(a.acquire(SHARD, 1));
        String first = add(h.redis, SHARD, 1).get(0);
        waitUntil("first record handled", 10_000, () -> handler.handled(SHARD).size() == 1);
        assertThat(pendingIds()).as("handled, its acknowledgement lingering").containsExactly(first);

        String second = add(h.redis, SHARD, 1).get(0);
        waitUntil("second record handled", 10_000, () -> handler.handled(SHARD).size() == 2);
        // the read of the second acknowledged the first, or (the second read behind its wake-up read) the first's
        // acknowledgement goes with the second's at once
        waitUntil("the first acknowledged", 10_000, () -> !pendingIds().contains(first));
        assertThat(pendingIds()).isSubsetOf(second);
        assertThat(handler.handled(SHARD)).containsExactly(first, second);
    }

    @Test
    void aLingeringAcknowledgementIsSentWhenTheLingerRunsOut() {
        MemberShards a = h.member("A", handler, settings(2, 10).withAckLinger(200));
        await(a.acquire(SHARD, 1));
        add(h.redis, SHARD, 1);
        waitUntil("handled and acknowledged by the linger timer", 10_000,
                () -> handler.handled(SHARD).size() == 1 && h.pending(SHARD) == 0);
        String later = add(h.redis, SHARD, 1).get(0);
        waitUntil("a record after the timer's read is still woken and handled", 10_000, () -> handler.handled(SHARD).size() == 2);
        assertThat(handler.handled(SHARD)).endsWith(later);
    }

    @Test
    void pausingOrReleasingTheShardSendsItsLingeringAcknowledgement() {
        MemberShards a = h.member("A", handler, settings(2, 10).withAckLinger(60_000));
        await(a.acquire(SHARD, 1));
        add(h.redis, SHARD, 1);
        waitUntil("handled", 10_000, () -> handler.handled(SHARD).size() == 1);
        assertThat(h.pending(SHARD)).isEqualTo(1);
        await(a.pause(SHARD));
        waitUntil("the pause acknowledged it", 10_000, () -> h.pending(SHARD) == 0);

        await(a.resume(SHARD));
        add(h.redis, SHARD, 1);
        waitUntil("handled after the resume", 10_000, () -> handler.handled(SHARD).size() == 2);
        assertThat(h.pending(SHARD)).isEqualTo(1);
        await(a.release(SHARD));
        assertThat(h.pending(SHARD)).as("acknowledged before the release completed").isZero();
    }

    private List<String> pendingIds() {
        Response r = await(h.redis.send(Request.cmd(Command.XPENDING).arg(SHARD.key()).arg(GROUP).arg("-").arg("+").arg(100)));
        List<String> ids = new ArrayList<>();
        for (Response entry : r) {
            ids.add(entry.get(0).toString());
        }
        return ids;
    }
}
