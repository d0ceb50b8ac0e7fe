package io.shardline.coordinator;

import static io.shardline.coordinator.testing.CoordinatorTestContext.delta;
import static io.shardline.coordinator.testing.CoordinatorTestContext.request;
import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import io.shardline.coordinator.testing.CoordinatorTestContext;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * KIP-848's heartbeat deltas on the coordinator (docs/protocol.md, section 2): a request that leaves out its owned
 * shards is read against the member's and the group's epochs, is answered without the assignment only when nothing
 * changed for the member, and never releases a shard the member may still own.
 */
class HeartbeatDeltaTest {

    private static TreeMap<ShardId, Integer> assigned(int ownerEpoch, int... indexes) {
        TreeMap<ShardId, Integer> m = new TreeMap<>();
        shards(indexes).forEach(s -> m.put(s, ownerEpoch));
        return m;
    }

    /** Member A joins a group of {@code shards} shards and reports them all owned once: it is steady. */
    private static HeartbeatResponse steadyA(CoordinatorTestContext ctx, int shards) {
        HeartbeatResponse join = ctx.join("A");
        int[] all = IntStream.range(0, shards).toArray();
        ctx.heartbeat("A", join.memberEpoch(), shards(all), List.of());
        return join;
    }

    private static RevokeReport revoked(int shard) {
        return new RevokeReport(shards(shard).get(0), RevokeState.REVOKED);
    }

    @Test
    void steadyDeltaIsAnsweredWithoutTheAssignmentAndDecidesNothing() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(4);
        HeartbeatResponse join = steadyA(ctx, 4);
        Member before = ctx.member("A");
        ctx.time().sleep(400);

        HeartbeatResponse steady = ctx.heartbeat(delta("A", join.memberEpoch(), List.of(), join.assignmentEpoch()));

        assertEquals(new HeartbeatResponse(ErrorCode.NONE, "", "A", join.memberEpoch(), join.assignmentEpoch(),
                new TreeMap<>(), new TreeSet<>(), 500, 3000, true), steady);
        assertTrue(ctx.lastRecords().isEmpty());
        assertSame(before, ctx.member("A"), "a steady heartbeat copies nothing");
        ctx.assertLeaseDeadline("A", 400 + 3000);
    }

    @Test
    void requestListingItsOwnedShardsAlwaysGetsTheWholeAssignment() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        HeartbeatResponse join = ctx.join("A");
        HeartbeatResponse resync = ctx.heartbeat("A", join.memberEpoch(), shards(0, 1), List.of());
        assertFalse(resync.assignmentUnchanged());
        assertEquals(assigned(1, 0, 1), resync.assigned());
    }

    @Test
    void deltaUnderAnOlderAssignmentEpochGetsTheRevocationAndReleasesNothing() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(4);
        HeartbeatResponse a = steadyA(ctx, 4);
        // B joins: shards 2 and 3 leave A's assigned set for its revoking set, under a new assignment epoch.
        HeartbeatResponse b = ctx.join("B");
        assertEquals(a.assignmentEpoch() + 1, ctx.group().assignmentEpoch());

        // A has not heard of it: its delta means "what I was assigned at epoch a", which still holds 2 and 3.
        HeartbeatResponse answer = ctx.heartbeat(delta("A", a.memberEpoch(), List.of(), a.assignmentEpoch()));

        assertFalse(answer.assignmentUnchanged());
        assertEquals(assigned(1, 0, 1), answer.assigned());
        assertEquals("A", ctx.group().owner(shards(2).get(0)).memberId(), "not released by its absence");
        assertEquals(new TreeSet<>(shards(2, 3)), ctx.member("A").revoking());
        assertEquals(Map.of(), ctx.heartbeat(delta("B", b.memberEpoch(), List.of(), b.assignmentEpoch())).assigned());
        // Once A reports them revoked, B gets them.
        ctx.heartbeat(request("A", a.memberEpoch(), shards(0, 1), List.of(revoked(2), revoked(3)),
                answer.assignmentEpoch()));
        assertEquals(assigned(2, 2, 3), ctx.heartbeat(delta("B", b.memberEpoch(), List.of(),
                b.assignmentEpoch())).assigned());
    }

    @Test
    void lostGrantIsSentAgainToADeltaUnderThePreviousEpoch() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        HeartbeatResponse a = ctx.join("A");
        HeartbeatResponse b = ctx.join("B");
        ctx.heartbeat(request("A", a.memberEpoch(), shards(0), List.of(revoked(1)), b.assignmentEpoch()));
        HeartbeatResponse grant = ctx.heartbeat(delta("B", b.memberEpoch(), List.of(), b.assignmentEpoch()));
        assertEquals(assigned(2, 1), grant.assigned());

        // The grant was lost: B's next delta still carries its old epoch and gets the grant again.
        HeartbeatResponse again = ctx.heartbeat(delta("B", b.memberEpoch(), List.of(), b.assignmentEpoch()));

        assertEquals(grant, again);
        HeartbeatResponse steady = ctx.heartbeat(delta("B", grant.memberEpoch(), List.of(), grant.assignmentEpoch()));
        assertTrue(steady.assignmentUnchanged());
    }

    @Test
    void newLeaderReadsADeltaAgainstTheReplayedEpochs() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(4);
        HeartbeatResponse a = steadyA(ctx, 4);
        ctx.join("B"); // decided and persisted; A never heard the revocation before the leader changed
        ctx.becomeLeader(0);

        HeartbeatResponse answer = ctx.heartbeat(delta("A", a.memberEpoch(), List.of(), a.assignmentEpoch()));

        assertEquals(assigned(1, 0, 1), answer.assigned());
        assertEquals("A", ctx.group().owner(shards(3).get(0)).memberId());
        HeartbeatResponse steady = ctx.heartbeat(request("A", a.memberEpoch(), shards(0, 1),
                List.of(revoked(2), revoked(3)), answer.assignmentEpoch()));
        assertFalse(steady.assignmentUnchanged(), "a request listing its shards gets the whole assignment");
        ctx.becomeLeader(0);
        assertTrue(ctx.heartbeat(delta("A", a.memberEpoch(), List.of(), answer.assignmentEpoch()))
                .assignmentUnchanged());
    }

    @Test
    void rejoinedMembersDeltaProvesItStoppedItsEarlierShards() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        HeartbeatResponse a = steadyA(ctx, 2);
        // A fenced itself and rejoins: its shards stay held until a request under the new epoch omits them.
        HeartbeatResponse rejoin = ctx.join("A");
        assertEquals(MemberState.UNREVOKED_SHARDS, ctx.member("A").state());

        // Its join listed nothing owned; the delta after it says the same, under the new epoch: released, granted.
        HeartbeatResponse proof = ctx.heartbeat(delta("A", rejoin.memberEpoch(), List.of(),
                rejoin.assignmentEpoch()));

        assertEquals(assigned(2, 0, 1), proof.assigned());
        assertEquals(rejoin.memberEpoch() + 1, proof.memberEpoch());
    }

    @Test
    void deltaStillReleasesAShardReportedRevoked() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        HeartbeatResponse a = steadyA(ctx, 2);
        HeartbeatResponse b = ctx.join("B");
        HeartbeatResponse revoke = ctx.heartbeat(delta("A", a.memberEpoch(), List.of(), a.assignmentEpoch()));
        assertEquals(assigned(1, 0), revoke.assigned());
        // A applied it (its owned set changed, so it lists it) and, drained, reports shard 1 revoked.
        ctx.heartbeat(request("A", a.memberEpoch(), shards(0), List.of(new RevokeReport(shards(1).get(0),
                RevokeState.DRAINING)), revoke.assignmentEpoch()));
        HeartbeatResponse done = ctx.heartbeat(delta("A", a.memberEpoch(), List.of(revoked(1)),
                revoke.assignmentEpoch()));
        assertTrue(done.assignmentUnchanged());
        assertEquals(null, ctx.group().owner(shards(1).get(0)).memberId());
        assertEquals(assigned(2, 1), ctx.heartbeat(delta("B", b.memberEpoch(), List.of(), b.assignmentEpoch()))
                .assigned());
    }
}
