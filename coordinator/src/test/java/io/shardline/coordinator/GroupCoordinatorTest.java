package io.shardline.coordinator;

import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.group.ShardOwner;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import io.shardline.coordinator.record.ShardOwnerRecord;
import io.shardline.coordinator.testing.CoordinatorTestContext;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The coordinator's handlers: join, the seven steps of revoke-before-assign, validation, expiry, leave. */
class GroupCoordinatorTest {

    private static TreeMap<ShardId, Integer> assigned(int epoch, int... indexes) {
        TreeMap<ShardId, Integer> m = new TreeMap<>();
        for (ShardId s : shards(indexes)) {
            m.put(s, epoch);
        }
        return m;
    }

    @Test
    void firstMemberJoinsAndGetsEveryShard() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(4);
        HeartbeatResponse r = ctx.join("A");
        assertEquals(new HeartbeatResponse(ErrorCode.NONE, "", "A", 3, 1, assigned(1, 0, 1, 2, 3), new TreeSet<>(),
                500, 3000), r);
        assertEquals(MemberState.STABLE, ctx.member("A").state());
        assertEquals(4, ctx.lastRecords().stream().filter(x -> x instanceof ShardOwnerRecord).count());
        ctx.assertLeaseDeadline("A", 3000);
    }

    @Test
    void revokeBeforeAssignInSevenSteps() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(4);
        int epochA = ctx.join("A").memberEpoch();
        // B joins: target gives B shards 2,3; they are still A's, so B gets nothing yet (pending).
        HeartbeatResponse b = ctx.join("B");
        assertEquals(Map.of(), b.assigned());
        assertEquals(new TreeSet<>(shards(2, 3)), b.pending());
        // 1. removed from A's assigned set; 2. A sees them missing in its next answer.
        HeartbeatResponse a = ctx.heartbeat("A", epochA, shards(0, 1, 2, 3), List.of());
        assertEquals(assigned(1, 0, 1), a.assigned());
        assertEquals(MemberState.UNREVOKED_SHARDS, ctx.member("A").state());
        // 3. A drains: while draining, B still gets nothing.
        ctx.heartbeat("A", epochA, shards(0, 1), List.of(new RevokeReport(shards(2).get(0), RevokeState.DRAINING),
                new RevokeReport(shards(3).get(0), RevokeState.DRAINING)));
        assertEquals(Map.of(), ctx.heartbeat("B", b.memberEpoch(), List.of(), List.of()).assigned());
        // 4. A reports REVOKED; 5. the coordinator accepts it.
        ctx.heartbeat("A", epochA, shards(0, 1), List.of(new RevokeReport(shards(2).get(0), RevokeState.REVOKED),
                new RevokeReport(shards(3).get(0), RevokeState.REVOKED)));
        assertEquals(new ShardOwner(null, 1), ctx.group().owner(shards(2).get(0)));
        assertEquals(MemberState.STABLE, ctx.member("A").state());
        // 6. B gets them with the next owner epoch and a new member epoch; 7. B reports them owned: stable.
        HeartbeatResponse b2 = ctx.heartbeat("B", b.memberEpoch(), List.of(), List.of());
        assertEquals(assigned(2, 2, 3), b2.assigned());
        assertEquals(b.memberEpoch() + 1, b2.memberEpoch());
        ctx.heartbeat("B", b2.memberEpoch(), shards(2, 3), List.of());
        assertEquals(MemberState.STABLE, ctx.member("B").state());
        assertTrue(ctx.coordinator().describe(CoordinatorTestContext.GROUP).orElseThrow().stable());
    }

    @Test
    void duplicateTerminalRevokeReportIsIgnored() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        int epochA = ctx.join("A").memberEpoch();
        ctx.join("B");
        ctx.heartbeat("A", epochA, shards(0, 1), List.of());
        RevokeReport revoked = new RevokeReport(shards(1).get(0), RevokeState.REVOKED);
        ctx.heartbeat("A", epochA, shards(0), List.of(revoked));
        HeartbeatResponse again = ctx.heartbeat("A", epochA, shards(0), List.of(revoked));
        assertEquals(ErrorCode.NONE, again.error());
        assertEquals(MemberState.STABLE, ctx.member("A").state());
    }

    @Test
    void claimingAnotherMembersShardIsFencedAndHeldUntilProof() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        int epochA = ctx.join("A").memberEpoch();
        ctx.join("B");
        ctx.heartbeat("A", epochA, shards(0, 1), List.of());
        ctx.heartbeat("A", epochA, shards(0), List.of(new RevokeReport(shards(1).get(0), RevokeState.REVOKED)));
        HeartbeatResponse b = ctx.heartbeat("B", ctx.member("B").memberEpoch(), List.of(), List.of());
        assertEquals(assigned(2, 1), b.assigned());
        // A claims shard 1, now B's: fenced.
        HeartbeatResponse bad = ctx.heartbeat("A", epochA, shards(0, 1), List.of());
        assertEquals(ErrorCode.INVALID_OWNERSHIP, bad.error());
        assertEquals(ErrorCode.FENCED_MEMBER_EPOCH, ctx.heartbeat("A", epochA, shards(0), List.of()).error());
        // A's shard 0 stays held (revoking) until A, rejoined, reports under its new epoch that it stopped it.
        assertEquals("A", ctx.group().owner(shards(0).get(0)).memberId());
        HeartbeatResponse rejoin = ctx.join("A");
        assertEquals(Map.of(), rejoin.assigned());
        HeartbeatResponse proof = ctx.heartbeat("A", rejoin.memberEpoch(), List.of(), List.of());
        assertEquals(assigned(2, 0), proof.assigned());
        assertEquals("B", ctx.group().owner(shards(1).get(0)).memberId());
    }

    @Test
    void unknownMemberIsToldToRejoin() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        assertEquals(ErrorCode.UNKNOWN_MEMBER_ID, ctx.heartbeat("Z", 4, List.of(), List.of()).error());
        assertTrue(ctx.lastRecords().isEmpty());
    }

    @Test
    void assignmentEpochFromTheFutureIsStale() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        int epoch = ctx.join("A").memberEpoch();
        HeartbeatResponse r = ctx.heartbeat(CoordinatorTestContext.request("A", epoch, shards(0, 1), List.of(), 99));
        assertEquals(ErrorCode.STALE_ASSIGNMENT_EPOCH, r.error());
    }

    @Test
    void previousEpochAfterLostAnswerGetsTheCurrentAnswer() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        int epochA = ctx.join("A").memberEpoch();
        int epochB = ctx.join("B").memberEpoch();
        ctx.heartbeat("A", epochA, shards(0, 1), List.of());
        ctx.heartbeat("A", epochA, shards(0), List.of(new RevokeReport(shards(1).get(0), RevokeState.REVOKED)));
        HeartbeatResponse grant = ctx.heartbeat("B", epochB, List.of(), List.of());
        assertEquals(epochB + 1, grant.memberEpoch());
        // The grant was lost: B retries with its old epoch and gets the same answer, nothing new is decided.
        HeartbeatResponse retry = ctx.heartbeat("B", epochB, List.of(), List.of());
        assertEquals(grant, retry);
        assertTrue(ctx.lastRecords().isEmpty());
    }

    @Test
    void expiryReleasesShardsOnlyAfterTheSessionTimeout() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        ctx.join("A");
        int epochB = ctx.join("B").memberEpoch();
        ctx.sleep(2999);
        ctx.heartbeat("B", epochB, List.of(), List.of());
        assertEquals("A", ctx.group().owner(shards(0).get(0)).memberId());
        ctx.sleep(1);
        assertEquals(null, ctx.member("A"));
        assertTrue(ctx.audit().stream().anyMatch(e -> e.type() == AuditType.MEMBER_EXPIRED && e.memberId().equals("A")));
        HeartbeatResponse b = ctx.heartbeat("B", epochB, List.of(), List.of());
        assertEquals(assigned(2, 0, 1), b.assigned());
    }

    @Test
    void gracefulLeaveReleasesAndBumpsGroupEpoch() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        int epochA = ctx.join("A").memberEpoch();
        int epochB = ctx.join("B").memberEpoch();
        int groupEpoch = ctx.group().groupEpoch();
        assertEquals(ErrorCode.NONE, ctx.leave("A", epochA).error());
        assertTrue(ctx.group().groupEpoch() > groupEpoch);
        assertEquals(assigned(2, 0, 1), ctx.heartbeat("B", epochB, List.of(), List.of()).assigned());
    }

    @Test
    void rejoinWithSameSubscriptionsKeepsTheAssignmentEpoch() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        ctx.join("A");
        int assignmentEpoch = ctx.group().assignmentEpoch();
        int groupEpoch = ctx.group().groupEpoch();
        HeartbeatResponse rejoin = ctx.join("A");
        assertTrue(ctx.group().groupEpoch() > groupEpoch);
        assertEquals(assignmentEpoch, ctx.group().assignmentEpoch());
        assertEquals(Map.of(), rejoin.assigned());
        assertEquals(assigned(2, 0, 1), ctx.heartbeat("A", rejoin.memberEpoch(), List.of(), List.of()).assigned());
    }
}
