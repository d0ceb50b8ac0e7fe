package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MemberHarness.DLQ;
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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A dead-letter stream that can never be written (a key of another type: WRONGTYPE) stops the shard once and reports
 * the member failed with the reason, instead of retrying the write forever; the record stays pending and the shard
 * can still be released (a stop does not hang).
 */
@RedisTest
class DeadLetterFailureTest {

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
    void aWrongTypeDeadLetterKeyFailsTheMemberVisiblyInsteadOfLooping() {
        await(h.redis.send(Request.cmd(Command.SET).arg(DLQ).arg("not a stream")));
        h.own(List.of(SHARD), "A", 1);
        List<String> ids = add(h.redis, SHARD, 1);
        List<String> failures = new CopyOnWriteArrayList<>();
        RecordingHandler handler = new RecordingHandler();
        handler.behaviour = (r, ctx) -> {
            throw new NonRetriableException("poison");
        };
        MemberShards.Events events = new MemberShards.Events() {
            @Override
            public void failed(String memberId, ShardId shard, String reason) {
                failures.add(memberId + " " + shard + " " + reason);
            }
        };
        MemberShards member = h.member("A", handler, ConsumerSettings.defaults(MemberHarness.GROUP, DLQ)
                .withConcurrency(1, 5).withRetries(1, 10, 10, 5_000), events);
        await(member.acquire(SHARD, 1));

        waitUntil("the member reported failed", 10_000, () -> !failures.isEmpty());
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0)).contains("A", "cannot write record " + ids.get(0) + " to the dead-letter stream "
                + DLQ, "WRONGTYPE", "restart the listener");
        assertThat(h.pending(SHARD)).as("the record stays pending for a takeover").isEqualTo(1);
        await(member.release(SHARD));
        assertThat(failures).hasSize(1);
    }
}
