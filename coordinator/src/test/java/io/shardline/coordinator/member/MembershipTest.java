package io.shardline.coordinator.member;

import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.member.MemberAction.FenceAll;
import io.shardline.coordinator.member.MemberAction.RevokeShard;
import io.shardline.coordinator.member.MemberAction.StartShard;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.LeaveRequest;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** One test per edge of the member-side state machine. */
class MembershipTest {

    private static final ShardId S0 = shards(0).get(0);
    private static final ShardId S1 = shards(1).get(0);

    private final Membership member = newMember();

    /** Member "A" of group "g" reading "orders": heartbeat every 500 ms, self-fence margin 1,000 ms. */
    static Membership newMember() {
        return new Membership(new MembershipConfig("g", "A", Optional.empty(), Optional.empty(),
                new TreeSet<>(List.of("orders")), 500, 1000));
    }

    /** An answer without error to "A": assignment epoch 1, interval 500 ms, session 3,000 ms. */
    static HeartbeatResponse ok(int epoch, Map<ShardId, Integer> assigned, ShardId... pending) {
        return new HeartbeatResponse(ErrorCode.NONE, "", "A", epoch, 1, new TreeMap<>(assigned),
                new TreeSet<>(List.of(pending)), 500, 3000);
    }

    private static HeartbeatResponse error(ErrorCode code) {
        return HeartbeatResponse.error(code, "test", "A", 500, 3000);
    }

    private List<MemberAction> joinWith(long now, Map<ShardId, Integer> assigned) {
        SentHeartbeat join = member.heartbeat(now);
        return member.onResponse(now + 10, join.requestId(), ok(5, assigned));
    }

    @Test
    void testUnjoinedToJoiningSendsEpochZeroAndNothingOwned() {
        SentHeartbeat join = member.heartbeat(0);
        assertEquals(new HeartbeatRequest("g", "A", 0, Optional.empty(), Optional.empty(),
                new TreeSet<>(List.of("orders")), new TreeSet<>(), List.of(), 0), join.request());
        assertEquals(MembershipState.JOINING, member.state());
    }

    @Test
    void testJoiningToStableStartsGrantedShardsAndSetsLeaseFromSendTime() {
        List<MemberAction> actions = joinWith(100, Map.of(S0, 1));
        assertEquals(List.of(new StartShard(S0, 1)), actions);
        assertEquals(MembershipState.STABLE, member.state());
        assertEquals(100 + 3000 - 1000, member.leaseDeadlineMs());
        assertTrue(member.mayProcess(S0, 2099));
        assertFalse(member.mayProcess(S0, 2100));
    }

    @Test
    void testJoiningToReconcilingWhenPending() {
        SentHeartbeat join = member.heartbeat(0);
        member.onResponse(1, join.requestId(), ok(5, Map.of(), S1));
        assertEquals(MembershipState.RECONCILING, member.state());
    }

    @Test
    void testJoiningToUnjoinedOnRetriableError() {
        SentHeartbeat join = member.heartbeat(0);
        assertEquals(List.of(), member.onResponse(1, join.requestId(), error(ErrorCode.NOT_COORDINATOR)));
        assertEquals(MembershipState.UNJOINED, member.state());
        assertEquals(Long.MIN_VALUE, member.leaseDeadlineMs());
    }

    @Test
    void testStableToReconcilingRevokesMissingShardThenReportsRevoked() {
        joinWith(0, Map.of(S0, 1, S1, 1));
        SentHeartbeat hb = member.heartbeat(500);
        assertEquals(List.of(new RevokeShard(S1, 0)), member.onResponse(510, hb.requestId(), ok(5, Map.of(S0, 1))));
        assertEquals(MembershipState.RECONCILING, member.state());
        assertTrue(member.mayProcess(S1, 510), "a draining shard still finishes its batch");
        member.onShardDrained(S1);
        assertFalse(member.mayProcess(S1, 511));
        assertTrue(member.heartbeatDue(511), "a drained shard is reported at once");
        SentHeartbeat report = member.heartbeat(511);
        assertEquals(List.of(new RevokeReport(S1, RevokeState.REVOKED)), report.request().revoking());
        member.onResponse(520, report.requestId(), ok(5, Map.of(S0, 1)));
        assertEquals(MembershipState.STABLE, member.state());
        assertEquals(Map.of(), member.revoking());
    }

    @Test
    void testStableToFencedAtLeaseDeadline() {
        joinWith(0, Map.of(S0, 1));
        assertEquals(List.of(), member.tick(1999));
        assertEquals(List.of(new FenceAll(new TreeSet<>(List.of(S0)), "no answer since the lease deadline 2000 "
                + "(now 2000)")), member.tick(2000));
        assertEquals(MembershipState.FENCED, member.state());
        assertEquals(0, member.heartbeat(2001).request().memberEpoch());
    }

    @Test
    void testLateAnswerAfterSelfFenceIsIgnored() {
        joinWith(0, Map.of(S0, 1));
        SentHeartbeat hb = member.heartbeat(500);
        List<MemberAction> actions = member.onResponse(2500, hb.requestId(), ok(5, Map.of(S0, 1)));
        assertTrue(actions.get(0) instanceof FenceAll);
        assertEquals(1, actions.size());
        assertEquals(MembershipState.FENCED, member.state());
    }

    @Test
    void testUnknownMemberIdDropsEverythingAndRejoinsWithSameId() {
        joinWith(0, Map.of(S0, 1));
        SentHeartbeat hb = member.heartbeat(500);
        List<MemberAction> actions = member.onResponse(510, hb.requestId(), error(ErrorCode.UNKNOWN_MEMBER_ID));
        assertTrue(actions.get(0) instanceof FenceAll f && f.shards().contains(S0));
        assertEquals(Map.of(), member.owned());
        HeartbeatRequest rejoin = member.heartbeat(510).request();
        assertEquals("A", rejoin.memberId());
        assertEquals(0, rejoin.memberEpoch());
    }

    @Test
    void testFencedMemberEpochDropsEverything() {
        joinWith(0, Map.of(S0, 1));
        SentHeartbeat hb = member.heartbeat(500);
        member.onResponse(510, hb.requestId(), error(ErrorCode.FENCED_MEMBER_EPOCH));
        assertEquals(MembershipState.FENCED, member.state());
        assertFalse(member.mayProcess(S0, 511));
    }

    @Test
    void testRetriableErrorKeepsOwnershipButNotTheLease() {
        joinWith(0, Map.of(S0, 1));
        SentHeartbeat hb = member.heartbeat(1500);
        member.onResponse(1510, hb.requestId(), error(ErrorCode.NOT_COORDINATOR));
        assertEquals(MembershipState.STABLE, member.state());
        assertEquals(2000, member.leaseDeadlineMs());
    }

    @Test
    void testStaleAnswerOfAnotherRequestIsIgnored() {
        joinWith(0, Map.of(S0, 1));
        SentHeartbeat hb = member.heartbeat(500);
        assertEquals(List.of(), member.onResponse(510, hb.requestId() - 1, ok(5, Map.of())));
        assertEquals(Map.of(S0, 1), member.owned());
    }

    @Test
    void testFailedRequestAllowsNextHeartbeat() {
        joinWith(0, Map.of(S0, 1));
        SentHeartbeat hb = member.heartbeat(500);
        assertThrows(IllegalStateException.class, () -> member.heartbeat(600));
        member.onRequestFailed(700, hb.requestId());
        assertTrue(member.heartbeatDue(1000));
    }

    @Test
    void testExpeditedHeartbeatAfterNotCoordinatorIsDueBeforeTheIntervalAndKeepsTheLease() {
        joinWith(0, Map.of(S0, 1));
        long lease = member.leaseDeadlineMs();
        SentHeartbeat hb = member.heartbeat(500);
        assertEquals(List.of(), member.onResponse(510, hb.requestId(), error(ErrorCode.NOT_COORDINATOR)));
        assertFalse(member.heartbeatDue(600), "an error answer waits one interval by itself");
        member.expediteHeartbeat(610);
        assertFalse(member.heartbeatDue(609));
        assertTrue(member.heartbeatDue(610));
        member.expediteHeartbeat(5_000);
        assertTrue(member.heartbeatDue(610), "expediting never delays a heartbeat already due");
        assertEquals(lease, member.leaseDeadlineMs(), "only an answer without error extends the lease");
        assertEquals(Map.of(S0, 1), member.owned());
    }

    @Test
    void testStableToLeavingToLeft() {
        joinWith(0, Map.of(S0, 1));
        assertEquals(List.of(new RevokeShard(S0, 0)), member.leave(100));
        assertEquals(Optional.empty(), member.leaveRequest(101));
        member.onShardDrained(S0);
        assertEquals(Optional.of(new LeaveRequest("g", "A", 5)), member.leaveRequest(102));
        assertEquals(MembershipState.LEFT, member.state());
        assertThrows(IllegalStateException.class, () -> member.heartbeat(103));
    }

    @Test
    void testRevokingOneOfManyShardsRevokesExactlyThatShard() {
        ShardId s2 = shards(2).get(0);
        joinWith(0, Map.of(S0, 1, S1, 1, s2, 1));
        SentHeartbeat hb = member.heartbeat(500);
        assertEquals(List.of(new RevokeShard(S1, 0)), member.onResponse(510, hb.requestId(), ok(5, Map.of(S0, 1, s2, 1))));
        assertEquals(Map.of(S0, 1, s2, 1), member.owned());
        assertEquals(Map.of(S1, RevokeState.DRAINING), member.revoking());
    }

    @Test
    void testJoiningToFencedOnRejoinError() {
        SentHeartbeat join = member.heartbeat(0);
        List<MemberAction> actions = member.onResponse(1, join.requestId(), error(ErrorCode.FENCED_MEMBER_EPOCH));
        assertTrue(actions.get(0) instanceof FenceAll);
        assertEquals(MembershipState.FENCED, member.state());
        assertTrue(member.heartbeatDue(1), "rejoins at once");
    }

    @Test
    void testReconcilingToFencedWhenGrantedAgainWhileRevoking() {
        joinWith(0, Map.of(S0, 1, S1, 1));
        SentHeartbeat hb = member.heartbeat(500);
        member.onResponse(510, hb.requestId(), ok(5, Map.of(S0, 1)));
        SentHeartbeat again = member.heartbeat(600);
        List<MemberAction> actions = member.onResponse(610, again.requestId(), ok(6, Map.of(S0, 1, S1, 2)));
        assertTrue(actions.get(0) instanceof FenceAll f && f.shards().equals(new TreeSet<>(List.of(S0, S1))));
        assertEquals(MembershipState.FENCED, member.state());
    }

    @Test
    void testLeavingToLeftAtLeaseDeadlineWithoutLeaveRequest() {
        joinWith(0, Map.of(S0, 1));
        member.leave(100);
        assertTrue(member.tick(2000).get(0) instanceof FenceAll);
        assertEquals(MembershipState.LEFT, member.state());
        assertEquals(Optional.empty(), member.leaveRequest(2001));
    }

    @Test
    void testLeaveBeforeJoiningSendsNothing() {
        member.leave(0);
        assertEquals(Optional.empty(), member.leaveRequest(1));
        assertEquals(MembershipState.LEFT, member.state());
    }

    @Test
    void testOwnerEpochChangeWhileOwnedFences() {
        joinWith(0, Map.of(S0, 1));
        SentHeartbeat hb = member.heartbeat(500);
        List<MemberAction> actions = member.onResponse(510, hb.requestId(), ok(6, Map.of(S0, 2)));
        assertTrue(actions.get(0) instanceof FenceAll);
        assertEquals(MembershipState.FENCED, member.state());
    }

    /** A member with a rebalance timeout of 1000 ms that owned S0 and S1 and was told at t=510 to revoke S1. */
    private static Membership revokingS1(List<MemberAction> revokeActions) {
        Membership m = new Membership(new MembershipConfig("g", "A", Optional.empty(), Optional.empty(),
                new TreeSet<>(List.of("orders")), 500, 1000, 1000));
        SentHeartbeat join = m.heartbeat(0);
        m.onResponse(10, join.requestId(), ok(5, Map.of(S0, 1, S1, 1)));
        SentHeartbeat hb = m.heartbeat(500);
        revokeActions.addAll(m.onResponse(510, hb.requestId(), ok(5, Map.of(S0, 1))));
        return m;
    }

    /** Keeps the lease alive with answers that still leave S1 out, up to {@code untilMs}. */
    private static void heartbeatUntil(Membership m, long untilMs) {
        for (long t = 1000; t < untilMs; t += 500) {
            SentHeartbeat hb = m.heartbeat(t);
            assertEquals(List.of(new RevokeReport(S1, RevokeState.DRAINING)), hb.request().revoking());
            assertEquals(List.of(), m.onResponse(t + 5, hb.requestId(), ok(5, Map.of(S0, 1))));
        }
    }

    @Test
    void testReconcilingToFencedWhenADrainOutlivesTheRebalanceTimeout() {
        List<MemberAction> revoke = new java.util.ArrayList<>();
        Membership m = revokingS1(revoke);
        assertEquals(List.of(new RevokeShard(S1, 0)), revoke);
        assertEquals(1510, m.revocationDeadlineMs());
        heartbeatUntil(m, 1500);
        assertTrue(m.mayProcess(S1, 1509));
        assertEquals(List.of(), m.tick(1509));
        assertFalse(m.mayProcess(S0, 1510), "nothing is processed once a drain is overdue");
        assertEquals(List.of(new FenceAll(new TreeSet<>(List.of(S0, S1)), "rebalance timeout: " + S1
                + " did not drain within 1000 ms (deadline 1510, now 1510)")), m.tick(1510));
        assertEquals(MembershipState.FENCED, m.state());
        assertEquals(1, m.generation());
        assertTrue(m.heartbeatDue(1510), "rejoins at once");
        assertEquals(0, m.heartbeat(1510).request().memberEpoch());
    }

    @Test
    void testDrainOfAnEarlierGenerationIsIgnoredAfterRejoin() {
        Membership m = revokingS1(new java.util.ArrayList<>());
        m.tick(1510);
        SentHeartbeat rejoin = m.heartbeat(1510);
        m.onResponse(1520, rejoin.requestId(), ok(9, Map.of(S0, 2, S1, 2)));
        SentHeartbeat hb = m.heartbeat(2000);
        assertEquals(List.of(new RevokeShard(S1, 1)), m.onResponse(2010, hb.requestId(), ok(9, Map.of(S0, 2))));
        m.onShardDrained(S1, 0);
        assertEquals(Map.of(S1, RevokeState.DRAINING), m.revoking(), "the hung drain of generation 0 finished late");
        m.onShardDrained(S1, 1);
        assertEquals(Map.of(S1, RevokeState.REVOKED), m.revoking());
    }

    @Test
    void testFenceDecidedInsideOnRequestFailedIsHandedOutByTheNextTickOnce() {
        joinWith(0, Map.of(S0, 1));
        SentHeartbeat hb = member.heartbeat(500);
        member.onRequestFailed(2000, hb.requestId());
        assertEquals(MembershipState.FENCED, member.state());
        assertEquals(List.of(new FenceAll(new TreeSet<>(List.of(S0)), "no answer since the lease deadline 2000 "
                + "(now 2000)")), member.tick(2001));
        assertEquals(List.of(), member.tick(2002));
    }

    @Test
    void testLeavingToLeftWhenTheLastDrainHangs() {
        List<MemberAction> revoke = new java.util.ArrayList<>();
        Membership m = revokingS1(revoke);
        m.leave(600);
        m.onShardDrained(S0, 0);
        assertEquals(List.of(FenceAll.class), m.tick(1510).stream().map(Object::getClass).toList());
        assertEquals(MembershipState.LEFT, m.state());
        assertEquals(Optional.empty(), m.leaveRequest(1511));
    }
}
