package io.shardline.coordinator;

import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import io.shardline.coordinator.testing.CoordinatorTestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A shard the old owner reports {@code REVOKED} reaches the member that waits for it on that member's next
 * heartbeat, with no membership change in between. {@code cooperative-sticky} withholds a moving shard from the
 * first target (it is assigned "in the next round"), so the release itself must start that round.
 */
class ReleasedShardHandoverTest {

    @ParameterizedTest
    @ValueSource(strings = {"sticky", "cooperative-sticky", "range", "round-robin"})
    void releasedShardsAreGrantedOnTheWaitingMembersNextHeartbeat(String assignor) {
        CoordinatorTestContext ctx = CoordinatorTestContext.builder().withShards(4)
                .withAssignor(AssignorRegistry.builtIn(assignor)).build();
        HeartbeatResponse a = ctx.join("A");
        assertEquals(4, a.assigned().size());
        HeartbeatResponse b = ctx.join("B");
        assertEquals(List.of(), List.copyOf(b.assigned().keySet()));
        // A learns which shards it must give back, drains them and reports them REVOKED.
        HeartbeatResponse a2 = ctx.heartbeat("A", a.memberEpoch(), shards(0, 1, 2, 3), List.of());
        TreeSet<ShardId> moving = new TreeSet<>(shards(0, 1, 2, 3));
        moving.removeAll(a2.assigned().keySet());
        assertFalse(moving.isEmpty(), "A keeps every shard with two members: " + a2.assigned());
        List<RevokeReport> revoked = new ArrayList<>();
        moving.forEach(s -> revoked.add(new RevokeReport(s, RevokeState.REVOKED)));
        ctx.heartbeat("A", a2.memberEpoch(), List.copyOf(a2.assigned().keySet()), revoked);
        for (ShardId s : moving) {
            assertTrue(ctx.group().owner(s).isFree(), s + " released");
        }
        // B's next heartbeat, nothing else happened: B gets every released shard.
        HeartbeatResponse b2 = ctx.heartbeat("B", b.memberEpoch(), List.of(), List.of());
        assertEquals(moving, b2.assigned().keySet(), "B's grant after A released " + moving);
        assertEquals(List.of(), List.copyOf(b2.pending()));
        ctx.heartbeat("B", b2.memberEpoch(), List.copyOf(moving), List.of());
        HeartbeatResponse a3 = ctx.heartbeat("A", a2.memberEpoch(), List.copyOf(a2.assigned().keySet()), List.of());
        assertEquals(a2.assigned(), a3.assigned());
        assertEquals(MemberState.STABLE, ctx.member("A").state());
        assertEquals(MemberState.STABLE, ctx.member("B").state());
        assertTrue(ctx.coordinator().describe(CoordinatorTestContext.GROUP).orElseThrow().stable());
    }
}
