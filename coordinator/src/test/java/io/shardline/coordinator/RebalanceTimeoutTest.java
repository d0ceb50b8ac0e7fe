package io.shardline.coordinator;

import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.group.MemberView;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import io.shardline.coordinator.testing.CoordinatorTestContext;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Kafka's rebalance timeout on the coordinator: a member that keeps heartbeating but never reports a revoked shard
 * drained is fenced at its revocation deadline, and the shard moves on once the member proves it stopped (or its
 * lease passes), never while it may still process it.
 */
class RebalanceTimeoutTest {

    private static final int REBALANCE_TIMEOUT_MS = 5_000;
    private static final ShardId S2 = shards(2).get(0);
    private static final ShardId S3 = shards(3).get(0);
    private static final List<RevokeReport> DRAINING = List.of(new RevokeReport(S2, RevokeState.DRAINING),
            new RevokeReport(S3, RevokeState.DRAINING));

    private CoordinatorTestContext ctx;
    private int epochA;
    private int epochB;

    /** A owns shards 0–3; B joins at t=1000, so A must revoke 2 and 3 by t=6000. */
    @BeforeEach
    void aMustRevokeTwoShards() {
        ctx = CoordinatorTestContext.builder().withShards(4).withSessionTimeoutMs(3000)
                .withRebalanceTimeoutMs(REBALANCE_TIMEOUT_MS).build();
        epochA = ctx.join("A").memberEpoch();
        epochA = ctx.heartbeat("A", epochA, List.of(), List.of()).memberEpoch();
        ctx.heartbeat("A", epochA, shards(0, 1, 2, 3), List.of());
        ctx.time().sleep(1000);
        epochB = ctx.join("B").memberEpoch();
        HeartbeatResponse a = ctx.heartbeat("A", epochA, shards(0, 1, 2, 3), List.of());
        assertEquals(new TreeSet<>(shards(0, 1)), a.assigned().keySet());
        assertEquals(new TreeSet<>(shards(2, 3)), ctx.member("A").revoking());
    }

    /** A keeps heartbeating (its lease is fine) while its drain hangs, until {@code untilMs}. */
    private void hangUntil(long untilMs) {
        while (ctx.time().milliseconds() + 500 < untilMs) {
            ctx.sleep(500);
            assertEquals(ErrorCode.NONE, ctx.heartbeat("A", epochA, shards(0, 1), DRAINING).error());
            ctx.heartbeat("B", epochB, List.of(), List.of());
        }
    }

    @Test
    void testRevocationDeadlineIsInTheReadModel() {
        MemberView a = ctx.coordinator().describe(CoordinatorTestContext.GROUP).orElseThrow().members().get(0);
        assertEquals(1000 + REBALANCE_TIMEOUT_MS, a.revocationDeadlineMs());
        MemberView b = ctx.coordinator().describe(CoordinatorTestContext.GROUP).orElseThrow().members().get(1);
        assertEquals(-1, b.revocationDeadlineMs());
    }

    @Test
    void testUnrevokedToFencedByTickAtTheRebalanceDeadline() {
        hangUntil(6000);
        assertEquals(MemberState.UNREVOKED_SHARDS, ctx.member("A").state());
        ctx.sleep(6000 - ctx.time().milliseconds() - 1);
        assertEquals(epochA, ctx.member("A").memberEpoch(), "not fenced one millisecond early");
        ctx.sleep(1);
        assertEquals(List.of(AuditType.MEMBER_REBALANCE_TIMEOUT), ctx.audit().stream().map(AuditEvent::type)
                .filter(t -> t == AuditType.MEMBER_REBALANCE_TIMEOUT).toList());
        assertTrue(ctx.member("A").memberEpoch() > epochA);
        assertEquals(new TreeSet<>(shards(0, 1, 2, 3)), ctx.member("A").revoking(), "held until A proves it stopped");
        assertEquals(ErrorCode.FENCED_MEMBER_EPOCH, ctx.heartbeat("A", epochA, shards(0, 1), DRAINING).error());
        assertEquals(List.of(), List.copyOf(ctx.heartbeat("B", epochB, List.of(), List.of()).assigned().keySet()),
                "nothing moves while A may still process");
    }

    @Test
    void testFencedMemberRejoinsProvesItStoppedAndTheShardsMoveOn() {
        hangUntil(6000);
        ctx.sleep(6000 - ctx.time().milliseconds());
        HeartbeatResponse rejoin = ctx.join("A");
        assertEquals(ErrorCode.NONE, rejoin.error());
        assertEquals(Map.of(), rejoin.assigned());
        HeartbeatResponse proof = ctx.heartbeat("A", rejoin.memberEpoch(), List.of(), List.of());
        assertEquals(ErrorCode.NONE, proof.error());
        assertEquals(new TreeSet<>(), ctx.member("A").revoking());
        HeartbeatResponse b = ctx.heartbeat("B", epochB, List.of(), List.of());
        assertEquals(new TreeSet<>(shards(2, 3)), b.assigned().keySet());
        assertEquals("B", ctx.group().owner(S2).memberId());
    }

    @Test
    void testHeartbeatStillDrainingPastTheDeadlineIsAnsweredFencedMemberEpoch() {
        hangUntil(6000);
        ctx.time().sleep(6000 - ctx.time().milliseconds());
        HeartbeatResponse late = ctx.heartbeat("A", epochA, shards(0, 1), DRAINING);
        assertEquals(ErrorCode.FENCED_MEMBER_EPOCH, late.error());
        assertTrue(late.errorMessage().contains("rebalance timeout of 5000 ms"), late.errorMessage());
        assertEquals(AuditType.MEMBER_REBALANCE_TIMEOUT, ctx.audit().get(ctx.audit().size() - 1).type());
    }

    @Test
    void testRevokedReportedAtTheDeadlineBeforeAnyTickIsAccepted() {
        hangUntil(6000);
        ctx.time().sleep(6000 - ctx.time().milliseconds());
        HeartbeatResponse done = ctx.heartbeat("A", epochA, shards(0, 1), List.of(
                new RevokeReport(S2, RevokeState.REVOKED), new RevokeReport(S3, RevokeState.REVOKED)));
        assertEquals(ErrorCode.NONE, done.error());
        assertEquals(MemberState.STABLE, ctx.member("A").state());
        assertEquals(-1, ctx.group().revocationDeadline("A"));
    }

    @Test
    void testFencedMemberThatNeverRejoinsIsExpiredByItsLeaseAndFencedOnlyOnce() {
        hangUntil(6000);
        long lastAccepted = ctx.time().milliseconds();
        ctx.sleep(6000 - lastAccepted);
        for (int i = 0; i < 6; i++) {
            ctx.sleep(500);
            ctx.heartbeat("B", epochB, List.of(), List.of());
        }
        assertEquals(null, ctx.member("A"), "expired one session after its last accepted heartbeat");
        assertEquals(1, ctx.audit().stream().filter(e -> e.type() == AuditType.MEMBER_REBALANCE_TIMEOUT).count());
        assertEquals(1, ctx.audit().stream().filter(e -> e.type() == AuditType.MEMBER_EXPIRED).count());
        assertTrue(ctx.group().owner(S2).isFree() || "B".equals(ctx.group().owner(S2).memberId()));
    }

    @Test
    void testNewLeaderGivesPendingRevocationsAFullRebalanceTimeout() {
        ctx.sleep(2000);
        ctx.becomeLeader();
        assertEquals(3000 + REBALANCE_TIMEOUT_MS, ctx.group().revocationDeadline("A"));
    }
}
