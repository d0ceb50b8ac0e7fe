package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MemberHarness.settings;
import static io.shardline.runtime.shard.ShardTesting.add;
import static io.shardline.runtime.shard.ShardTesting.await;
import static io.shardline.runtime.shard.ShardTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Future;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lease gate of a member's consumption (docs/reliability.md, "Guarantees"): a member whose lease ran out, by its own clock, hands no
 * record to its handler and acknowledges nothing, even a batch its read received while the lease was still valid
 * (a process paused with SIGSTOP between the read and the dispatch). The records stay pending in Redis and the next
 * owner takes them over. The lease runs on a hand-moved clock; the read "pauses" because the clock is moved past the
 * deadline in the moment its reply arrives, before the member sees it.
 */
@RedisTest
class MemberLeaseGateTest {

    private static final long DEADLINE_MS = 1_000;

    private MemberHarness h;
    private final AtomicLong now = new AtomicLong();
    private final AtomicBoolean lapsed = new AtomicBoolean();
    /** How often the member looked at its lease after it lapsed. */
    private final AtomicInteger looksAfterLapse = new AtomicInteger();
    private MemberLease lease;

    @BeforeEach
    void setUp(RedisServer server) {
        h = new MemberHarness(server.uri());
        lease = new MemberLease(() -> {
            if (lapsed.get()) {
                looksAfterLapse.incrementAndGet();
            }
            return now.get();
        });
        lease.extendTo(DEADLINE_MS);
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void aBatchReadBeforeTheLeaseRanOutButDispatchedAfterIsNotHandledAndTheNextOwnerGetsIt() {
        ShardId s = new ShardId("orders", 0);
        h.own(List.of(s), "A", 1);
        List<String> ids = add(h.redis, s, 10);
        RecordingHandler handlerA = new RecordingHandler();
        MemberShards a = h.member("A", handlerA, settings(1, 10), lapseOnReply(r -> r.toString().contains(ids.get(0))),
                lease);
        await(a.acquire(s, 1));

        waitUntil("A's read delivered the batch to A", 10_000, () -> h.pending(s) == 10);
        waitUntil("A looked at its lapsed lease again", 10_000, () -> looksAfterLapse.get() >= 3);
        assertThat(handlerA.total()).as("records handed to the handler after the lease ran out").isZero();
        assertThat(h.pending(s)).as("nothing acknowledged").isEqualTo(10);

        // A's heartbeat loop fences it; the coordinator gives the shard to B under epoch 2.
        await(a.fenceAll());
        await(h.commands.setOwner(s, MemberHarness.GROUP, "B", 2));
        RecordingHandler handlerB = new RecordingHandler();
        MemberShards b = h.member("B", handlerB, settings(1, 10));
        await(b.acquire(s, 2));
        waitUntil("B handled the batch A left pending", 10_000, () -> handlerB.handled(s).size() == 10);
        assertThat(handlerB.handled(s)).containsExactlyElementsOf(ids);
        waitUntil("B acknowledged it", 5_000, () -> h.pending(s) == 0);
        assertThat(handlerA.total()).isZero();
    }

    @Test
    void aBatchWhoseHandlingEndsAfterTheLeaseRanOutIsNotAcknowledged() {
        ShardId s = new ShardId("orders", 1);
        h.own(List.of(s), "A", 1);
        List<String> ids = add(h.redis, s, 10);
        RecordingHandler handlerA = new RecordingHandler();
        handlerA.behaviour = (r, ctx) -> {
            if (r.entryId().equals(ids.get(4))) {
                lapse(); // the member is paused in the middle of its handler, past its lease
            }
        };
        MemberShards a = h.member("A", handlerA, settings(1, 10), h.redis, lease);
        await(a.acquire(s, 1));

        waitUntil("A handled its batch", 10_000, () -> handlerA.handled(s).size() == 10);
        waitUntil("A looked at its lapsed lease again", 10_000, () -> looksAfterLapse.get() >= 3);
        assertThat(h.pending(s)).as("acknowledged after the lease ran out").isEqualTo(10);

        await(a.fenceAll());
        await(h.commands.setOwner(s, MemberHarness.GROUP, "B", 2));
        RecordingHandler handlerB = new RecordingHandler();
        MemberShards b = h.member("B", handlerB, settings(1, 10));
        await(b.acquire(s, 2));
        waitUntil("B handled the batch again and acknowledged it", 10_000, () -> h.pending(s) == 0
                && handlerB.handled(s).size() == 10);
        assertThat(handlerB.handled(s)).containsExactlyElementsOf(ids);
    }

    @Test
    void aBatchHeldBackByALapsedLeaseIsHandledIfTheLeaseTurnsOutRenewed() {
        ShardId s = new ShardId("orders", 2);
        h.own(List.of(s), "A", 1);
        List<String> ids = add(h.redis, s, 10);
        RecordingHandler handlerA = new RecordingHandler();
        MemberShards a = h.member("A", handlerA, settings(1, 10), lapseOnReply(r -> r.toString().contains(ids.get(0))),
                lease);
        await(a.acquire(s, 1));
        waitUntil("A looked at its lapsed lease again", 10_000, () -> looksAfterLapse.get() >= 3);
        assertThat(handlerA.total()).isZero();

        // The lapse was seen just before a renewal landed (the heartbeat loop extends the deadline): nothing is lost.
        lease.extendTo(DEADLINE_MS + 60_000);
        waitUntil("A handled the batch it held back", 10_000, () -> handlerA.handled(s).size() == 10);
        assertThat(handlerA.handled(s)).containsExactlyElementsOf(ids);
        waitUntil("A acknowledged it", 5_000, () -> h.pending(s) == 0);
        assertThat(a.ownedShards()).containsExactly(s);
    }

    @Test
    void aMemberWithoutALeaseProcessesNothing() {
        MemberLease none = new MemberLease(now::get);
        assertThat(none.valid()).isFalse();
        none.extendTo(10);
        assertThat(none.valid()).isTrue();
        now.set(10);
        assertThat(none.valid()).as("valid strictly before the deadline").isFalse();
        none.extendTo(Long.MIN_VALUE);
        assertThat(none.valid()).isFalse();
        assertThat(MemberLease.unbounded().valid()).isTrue();
    }

    private void lapse() {
        now.set(DEADLINE_MS);
        lapsed.set(true);
    }

    /**
     * The member's Redis, except that the first reply matching {@code read} arrives after the lease ran out: on
     * pooled commands (scripts) and on the exclusive connections of the transactional hot path alike.
     */
    private ShardRedis lapseOnReply(Predicate<Response> read) {
        ShardRedis redis = h.redis;
        UnaryOperator<Response> intercept = reply -> {
            if (reply != null && !lapsed.get() && read.test(reply)) {
                lapse();
            }
            return reply;
        };
        ExclusiveConnections exclusive = new ExclusiveConnections(
                () -> redis.connectDedicated().map(c -> (RedisConnection) new InterceptingConnection(c, intercept)), 2);
        return new ShardRedis() {
            @Override
            public Future<Response> send(Request request) {
                return redis.send(request).map(intercept);
            }

            @Override
            public Future<RedisConnection> connectDedicated() {
                return redis.connectDedicated();
            }

            @Override
            public long commandTimeoutMs() {
                return redis.commandTimeoutMs();
            }

            @Override
            public ExclusiveConnections exclusiveConnections() {
                return exclusive;
            }

            @Override
            public boolean supportsXackdel() {
                return redis.supportsXackdel();
            }
        };
    }

    /** A connection whose replies pass through {@code intercept} (the transaction's EXEC reply included). */
    private static final class InterceptingConnection extends ForwardingConnection {
        private final UnaryOperator<Response> intercept;

        InterceptingConnection(RedisConnection delegate, UnaryOperator<Response> intercept) {
            super(delegate);
            this.intercept = intercept;
        }

        @Override
        public Future<Response> send(Request command) {
            return delegate.send(command).map(intercept);
        }

        @Override
        public Future<List<Response>> batch(List<Request> commands) {
            return delegate.batch(commands).map(replies -> {
                replies.forEach(intercept::apply);
                return replies;
            });
        }
    }
}
