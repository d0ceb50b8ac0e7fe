package io.shardline.coordinator.member;

import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.member.MemberAction.FenceAll;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@link Membership#onShardFenced}: a shard fenced by Redis makes the member drop everything and rejoin at once. */
class MembershipShardFencedTest {

    private static final ShardId S0 = shards(0).get(0);
    private static final ShardId S1 = shards(1).get(0);

    private final Membership member = new Membership(new MembershipConfig("g", "A", Optional.empty(),
            Optional.empty(), new TreeSet<>(List.of("orders")), 500, 1000));

    private void joinWith(long now, Map<ShardId, Integer> assigned) {
        SentHeartbeat join = member.heartbeat(now);
        member.onResponse(now + 10, join.requestId(), new HeartbeatResponse(ErrorCode.NONE, "", "A", 5, 1,
                new TreeMap<>(assigned), new TreeSet<>(), 500, 3000));
    }

    @Test
    void aShardFencedUnderItsOwnedEpochFencesTheMemberAndARejoinIsDueAtOnce() {
        joinWith(0, Map.of(S0, 3, S1, 4));
        List<MemberAction> actions = member.onShardFenced(100, S0, 3, "FENCED {orders:0} owner=B epoch=4");
        assertEquals(1, actions.size());
        FenceAll fence = assertInstanceOf(FenceAll.class, actions.get(0));
        assertEquals(new TreeSet<>(List.of(S0, S1)), fence.shards());
        assertTrue(fence.reason().contains("owner=B epoch=4"), fence.reason());
        assertEquals(MembershipState.FENCED, member.state());
        assertTrue(member.owned().isEmpty());
        assertTrue(member.heartbeatDue(100), "the rejoin is due at once");
        assertEquals(0, member.heartbeat(100).request().memberEpoch(), "it rejoins with epoch 0");
    }

    @Test
    void aFenceOfAnotherEpochOrOfAShardNoLongerHeldIsIgnored() {
        joinWith(0, Map.of(S0, 3));
        assertEquals(List.of(), member.onShardFenced(100, S0, 2, "an older incarnation's late refusal"));
        assertEquals(List.of(), member.onShardFenced(100, S1, 4, "not ours"));
        assertEquals(MembershipState.STABLE, member.state());
        assertEquals(Map.of(S0, 3), member.owned());
    }

    @Test
    void aFenceAfterTheMemberFencedItselfIsIgnored() {
        joinWith(0, Map.of(S0, 3));
        member.onShardFenced(100, S0, 3, "first");
        assertEquals(List.of(), member.onShardFenced(101, S0, 3, "the same shard reported again while stopping"));
        assertEquals(MembershipState.FENCED, member.state());
    }
}
