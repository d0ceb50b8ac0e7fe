package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MemberHarness.settings;
import static io.shardline.runtime.shard.ShardTesting.add;
import static io.shardline.runtime.shard.ShardTesting.await;
import static io.shardline.runtime.shard.ShardTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.testkit.net.RespFaultProxy;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 17, deliverable 5: a fenced read of new entries that Redis ran but whose reply never reached the member (the
 * test kit's {@link RespFaultProxy} swallows it and drops the connection) left the entries in the member's own pending
 * list, where no later {@code >} read returns them: lag 0, never handled until the shard moved. The member now treats
 * such a read as of unknown outcome and replays its own pending entries before reading new ones, so every record is
 * handled and acknowledged by the same owner, without a move.
 */
@RedisTest
class UnknownReadOutcomeTest {

    private MemberHarness h;
    private RespFaultProxy proxy;
    private VertxShardRedis viaProxy;

    @BeforeEach
    void setUp(RedisServer server) {
        h = new MemberHarness(server.uri());
        proxy = RespFaultProxy.start(server.port());
        viaProxy = VertxShardRedis.create(h.vertx, "redis://127.0.0.1:" + proxy.port(), 8, 10_000);
    }

    @AfterEach
    void tearDown() {
        h.close();
        viaProxy.close();
        proxy.close();
    }

    @Test
    void entriesOfAReadWhoseReplyWasLostAreHandledByTheSameOwner() {
        ShardId s = new ShardId("orders", 0);
        h.own(List.of(s), "A", 1);
        RecordingHandler handler = new RecordingHandler();
        MemberShards a = h.member("A", handler, settings(1, 10), viaProxy, MemberLease.unbounded());
        await(a.acquire(s, 1));
        List<String> first = add(h.redis, s, 3);
        waitUntil("the first records handled", 10_000, () -> handler.total() == 3);

        // The next read of new entries runs on Redis (they are delivered to A's pending list), its reply is lost.
        proxy.dropReplyTo(UnknownReadOutcomeTest::readsNewEntries, 0);
        List<String> lost = add(h.redis, s, 5);
        waitUntil("the read's reply dropped", 10_000, () -> proxy.dropped() == 1);
        List<String> later = add(h.redis, s, 2);

        List<String> all = new ArrayList<>(first);
        all.addAll(lost);
        all.addAll(later);
        waitUntil("every record handled, the lost read's ones included", 20_000,
                () -> handler.handled(s).containsAll(all));
        waitUntil("nothing left pending", 10_000, () -> h.pending(s) == 0);
        assertThat(handler.handled(s)).as("in order, each once: the lost read's entries were never handed over before")
                .containsExactlyElementsOf(all);
        assertThat(h.fenced).as("the shard never moved or fenced").isEmpty();
    }

    /**
     * A fenced read of new entries: {@code XREADGROUP ... >} in the fenced transaction (its {@code EXEC} reply is
     * the one lost), or the {@code shard_read} / {@code shard_ack_read} functions where the client uses them.
     */
    private static boolean readsNewEntries(String command) {
        String c = command.toLowerCase(Locale.ROOT);
        return c.endsWith(" >") && (c.startsWith("xreadgroup ") || c.startsWith("fcall shard_read "))
                || c.startsWith("fcall shard_ack_read ");
    }
}
