package io.shardline.coordinator.member;

import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.member.MemberAction.FenceAll;
import io.shardline.coordinator.member.MemberAction.RevokeShard;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * KIP-848's heartbeat deltas on the member (docs/protocol.md, section 2): the owned shards are sent only when they
 * changed since the last answered request, and again after any failure (a resync); an answer without the
 * assignment keeps the one applied, and one whose epochs are not the member's is a protocol violation.
 */
class MembershipDeltaTest {

    private static final ShardId S0 = shards(0).get(0);
    private static final ShardId S1 = shards(1).get(0);

    private final Membership member = MembershipTest.newMember();

    private static HeartbeatResponse ok(int epoch, Map<ShardId, Integer> assigned, ShardId... pending) {
        return MembershipTest.ok(epoch, assigned, pending);
    }

    private static HeartbeatResponse unchanged(int epoch, int assignmentEpoch) {
        return new HeartbeatResponse(ErrorCode.NONE, "", "A", epoch, assignmentEpoch, new TreeMap<>(), new TreeSet<>(),
                500, 3000, true);
    }

    /** Joins and applies the answer, then reports the owned shards once (answered): the member is steady. */
    private void steady(Map<ShardId, Integer> assigned) {
        SentHeartbeat join = member.heartbeat(0);
        member.onResponse(10, join.requestId(), ok(5, assigned));
        SentHeartbeat report = member.heartbeat(500);
        assertFalse(report.request().ownedUnchanged(), "the shards it started changed its owned set");
        member.onResponse(510, report.requestId(), unchanged(5, 1));
    }

    @Test
    void testOwnedShardsAreLeftOutOnceAnswered() {
        steady(Map.of(S0, 1, S1, 1));
        HeartbeatRequest next = member.heartbeat(1000).request();
        assertEquals(new HeartbeatRequest("g", "A", 5, Optional.empty(), Optional.empty(),
                new TreeSet<>(List.of("orders")), new TreeSet<>(), List.of(), 1, 1, true), next);
    }

    @Test
    void testUnchangedAnswerKeepsTheAssignmentAndRenewsTheLease() {
        steady(Map.of(S0, 1));
        SentHeartbeat hb = member.heartbeat(1000);
        assertEquals(List.of(), member.onResponse(1010, hb.requestId(), unchanged(5, 1)));
        assertEquals(Map.of(S0, 1), member.owned());
        assertEquals(MembershipState.STABLE, member.state());
        assertEquals(1000 + 3000 - 1000, member.leaseDeadlineMs());
    }

    @Test
    void testUnchangedAnswerKeepsThePendingShards() {
        SentHeartbeat join = member.heartbeat(0);
        member.onResponse(10, join.requestId(), ok(5, Map.of(S0, 1), S1));
        SentHeartbeat hb = member.heartbeat(500);
        member.onResponse(510, hb.requestId(), unchanged(5, 1));
        assertEquals(new TreeSet<>(List.of(S1)), member.pending());
        assertEquals(MembershipState.RECONCILING, member.state());
    }

    @Test
    void testFailedRequestMakesTheNextOneListTheOwnedShards() {
        steady(Map.of(S0, 1));
        SentHeartbeat lost = member.heartbeat(1000);
        assertTrue(lost.request().ownedUnchanged());
        member.onRequestFailed(2000, lost.requestId());
        HeartbeatRequest resync = member.heartbeat(2000).request();
        assertFalse(resync.ownedUnchanged());
        assertEquals(new TreeSet<>(List.of(S0)), resync.owned());
    }

    @Test
    void testErrorAnswerMakesTheNextOneListTheOwnedShards() {
        steady(Map.of(S0, 1));
        SentHeartbeat hb = member.heartbeat(1000);
        member.onResponse(1010, hb.requestId(), HeartbeatResponse.error(ErrorCode.NOT_COORDINATOR, "moved", "A",
                500, 3000));
        assertFalse(member.heartbeat(1100).request().ownedUnchanged());
    }

    @Test
    void testRevocationInAWholeAnswerIsListedInTheNextRequest() {
        steady(Map.of(S0, 1, S1, 1));
        SentHeartbeat hb = member.heartbeat(1000);
        assertEquals(List.of(new RevokeShard(S1, 0)), member.onResponse(1010, hb.requestId(), ok(5, Map.of(S0, 1))));
        HeartbeatRequest next = member.heartbeat(1500).request();
        assertFalse(next.ownedUnchanged());
        assertEquals(new TreeSet<>(List.of(S0)), next.owned());
    }

    @Test
    void testUnchangedAnswerUnderOtherEpochsFencesTheMember() {
        steady(Map.of(S0, 1));
        SentHeartbeat hb = member.heartbeat(1000);
        List<MemberAction> actions = member.onResponse(1010, hb.requestId(), unchanged(6, 1));
        assertEquals(1, actions.size());
        assertTrue(actions.get(0) instanceof FenceAll);
        assertEquals(MembershipState.FENCED, member.state());
        assertEquals(0, member.heartbeat(1010).request().memberEpoch());
    }

    @Test
    void testJoinAlwaysListsItsOwnedShards() {
        assertFalse(member.heartbeat(0).request().ownedUnchanged());
    }
}
