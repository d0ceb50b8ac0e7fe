package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.ShardTesting.add;
import static io.shardline.runtime.shard.ShardTesting.await;
import static io.shardline.runtime.shard.ShardTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.member.MemberAction;
import io.shardline.coordinator.member.Membership;
import io.shardline.coordinator.member.MembershipConfig;
import io.shardline.coordinator.member.MembershipState;
import io.shardline.coordinator.member.SentHeartbeat;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.runtime.member.FencedShardRelay;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A shard fenced by Redis (the coordinator gave it to B under a higher epoch while A still acks) reaches A's
 * membership through the worker's {@link FencedShardRelay}: A stops the shard, and its membership drops
 * everything and is due to rejoin at once, as Kafka's consumer on a fenced commit.
 */
@RedisTest
class FencedShardEventTest {

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
    void aShardFencedByRedisIsStoppedAndTheMemberRejoins() throws Exception {
        ShardId s = new ShardId("orders", 4);
        h.own(List.of(s), "A", 1);
        Membership membership = new Membership(new MembershipConfig("g", "A", Optional.empty(), Optional.empty(),
                new TreeSet<>(List.of("orders")), 500, 1000));
        SentHeartbeat join = membership.heartbeat(0);
        membership.onResponse(1, join.requestId(), new HeartbeatResponse(ErrorCode.NONE, "", "A", 5, 1,
                new TreeMap<>(Map.of(s, 1)), new TreeSet<>(), 500, 60_000));

        List<MemberAction> actions = new CopyOnWriteArrayList<>();
        FencedShardRelay relay = new FencedShardRelay();
        relay.register("A", (shard, epoch, reason) -> {
            synchronized (membership) {
                actions.addAll(membership.onShardFenced(2, shard, epoch, reason));
            }
        });
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RecordingHandler handler = new RecordingHandler();
        handler.behaviour = (r, ctx) -> {
            inHandler.countDown();
            release.await(10, TimeUnit.SECONDS);
        };
        add(h.redis, s, 3); // before the acquisition, so that the first batch holds all three
        MemberShards a = h.member("A", handler, MemberHarness.settings(1, 10), relay);
        await(a.acquire(s, 1));
        assertThat(inHandler.await(10, TimeUnit.SECONDS)).isTrue();

        await(h.commands.setOwner(s, MemberHarness.GROUP, "B", 2)); // handed over while A is inside the handler
        release.countDown(); // A's fenced ack is now refused

        waitUntil("A's membership told", 10_000, () -> !actions.isEmpty());
        assertThat(actions).singleElement().isInstanceOfSatisfying(MemberAction.FenceAll.class, f -> {
            assertThat(f.shards()).containsExactly(s);
            assertThat(f.reason()).contains("FENCED {orders:4} owner=B epoch=2");
        });
        synchronized (membership) {
            assertThat(membership.state()).isEqualTo(MembershipState.FENCED);
            assertThat(membership.heartbeatDue(2)).isTrue();
        }
        assertThat(a.ownedShards()).isEmpty();
        assertThat(h.pending(s)).as("nothing acknowledged by the fenced owner").isEqualTo(3);
    }
}
