package io.shardline.coordinator;

import static io.shardline.coordinator.testing.CoordinatorTestContext.GROUP;
import static io.shardline.coordinator.testing.CoordinatorTestContext.STREAM;
import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.GroupView;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.group.RebalanceProtocol;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.GroupConfigRefusedException;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.testing.CoordinatorTestContext;
import io.shardline.coordinator.testing.GroupLogModel;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Static membership, the eager protocol, shard-set changes, leader failover and replay. */
class LifecycleTest {

    private static HeartbeatRequest staticJoin(String memberId, String instanceId) {
        return new HeartbeatRequest(GROUP, memberId, 0, Optional.of(instanceId), Optional.empty(),
                new TreeSet<>(List.of(STREAM)), new TreeSet<>(), List.of(), 0);
    }

    @Test
    void staticMemberBackWithinSessionKeepsItsShards() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(4);
        HeartbeatResponse a = ctx.heartbeat(staticJoin("A1", "pod-a"));
        int epochB = ctx.join("B").memberEpoch();
        ctx.heartbeat(new HeartbeatRequest(GROUP, "A1", a.memberEpoch(), Optional.of("pod-a"), Optional.empty(),
                new TreeSet<>(List.of(STREAM)), new TreeSet<>(shards(0, 1, 2, 3)), List.of(), 1));
        ctx.heartbeat(new HeartbeatRequest(GROUP, "A1", a.memberEpoch(), Optional.of("pod-a"), Optional.empty(),
                new TreeSet<>(List.of(STREAM)), new TreeSet<>(shards(0, 1)), List.of(
                        new RevokeReport(shards(2).get(0), RevokeState.REVOKED),
                        new RevokeReport(shards(3).get(0), RevokeState.REVOKED)), 1));
        int assignmentEpoch = ctx.group().assignmentEpoch();
        assertEquals(ErrorCode.NONE, ctx.leave("A1", a.memberEpoch()).error());
        assertEquals(MemberState.LEFT_STATIC, ctx.member("A1").state());
        ctx.sleep(1000);
        // B does not get A's reserved shards.
        assertEquals(new TreeSet<>(shards(2, 3)), ctx.heartbeat("B", epochB, List.of(), List.of()).assigned()
                .keySet());
        // The static instance comes back under a new member id and gets its reserved shards.
        HeartbeatResponse back = ctx.heartbeat(staticJoin("A2", "pod-a"));
        assertEquals(new TreeSet<>(shards(0, 1)), back.assigned().keySet());
        assertNull(ctx.member("A1"));
        assertEquals(assignmentEpoch + 1, ctx.group().assignmentEpoch());
    }

    @Test
    void liveStaticInstanceIsNotReleased() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        ctx.heartbeat(staticJoin("A1", "pod-a"));
        assertEquals(ErrorCode.UNRELEASED_INSTANCE_ID, ctx.heartbeat(staticJoin("A2", "pod-a")).error());
    }

    @Test
    void staticReservationExpiresAfterTheSessionTimeout() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        HeartbeatResponse a = ctx.heartbeat(staticJoin("A1", "pod-a"));
        int epochB = ctx.join("B").memberEpoch();
        ctx.leave("A1", a.memberEpoch());
        ctx.sleep(2000);
        ctx.heartbeat("B", epochB, List.of(), List.of());
        ctx.sleep(1000);
        assertNull(ctx.member("A1"));
        assertEquals(new TreeSet<>(shards(0, 1)), ctx.heartbeat("B", ctx.member("B").memberEpoch(), shards(1),
                List.of()).assigned().keySet());
    }

    @Test
    void eagerGroupRevokesEverythingBeforeAnyNewAssignment() {
        CoordinatorTestContext ctx = CoordinatorTestContext.builder().withShards(4)
                .withProtocol(RebalanceProtocol.EAGER).build();
        int epochA = ctx.join("A").memberEpoch();
        int epochB = ctx.join("B").memberEpoch();
        // A must revoke everything, even shards 0 and 1 it keeps.
        assertEquals(Map.of(), ctx.member("A").assigned());
        assertEquals(new TreeSet<>(shards(0, 1, 2, 3)), ctx.member("A").revoking());
        assertEquals(Map.of(), ctx.heartbeat("B", epochB, List.of(), List.of()).assigned());
        List<RevokeReport> revoked = shards(0, 1, 2, 3).stream()
                .map(s -> new RevokeReport(s, RevokeState.REVOKED)).toList();
        HeartbeatResponse a = ctx.heartbeat("A", epochA, List.of(), revoked);
        assertEquals(new TreeSet<>(shards(0, 1)), a.assigned().keySet());
        assertEquals(2, a.assigned().get(shards(0).get(0)));
        assertEquals(new TreeSet<>(shards(2, 3)), ctx.heartbeat("B", epochB, List.of(), List.of()).assigned().keySet());
    }

    @Test
    void shardSetChangeBumpsGroupEpochAndAssignsNewShards() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        int epoch = ctx.join("A").memberEpoch();
        int groupEpoch = ctx.group().groupEpoch();
        ctx.persist(ctx.coordinator().configureGroup(0, ctx.group().config().withStreams(Map.of(STREAM, 3)),
                ChangeReason.SHARD_SET_CHANGED));
        assertEquals(groupEpoch + 1, ctx.group().groupEpoch());
        HeartbeatResponse r = ctx.heartbeat("A", epoch, shards(0, 1), List.of());
        assertEquals(new TreeSet<>(shards(0, 1, 2)), r.assigned().keySet());
    }

    @Test
    void aReshardChangesAVersionedGroupsShardSetKeepingItsRevisionAndAListenersOldCountIsThenRefused() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        ctx.persist(ctx.coordinator().configureGroup(0, ctx.group().config().withRevision(7),
                ChangeReason.CONFIG_CHANGED));
        int epoch = ctx.join("A").memberEpoch();
        int groupEpoch = ctx.group().groupEpoch();
        CoordinatorResult<Boolean> grown = ctx.persist(ctx.coordinator().reshardGroup(0, GROUP, STREAM, 4,
                ChangeReason.SHARD_SET_CHANGED));
        assertEquals(true, grown.response());
        assertEquals(groupEpoch + 1, ctx.group().groupEpoch());
        assertEquals(7, ctx.group().config().revision());
        assertEquals(4, ctx.group().config().streams().get(STREAM));
        assertEquals(false, ctx.coordinator().reshardGroup(0, GROUP, STREAM, 4, ChangeReason.SHARD_SET_CHANGED)
                .response());
        HeartbeatResponse r = ctx.heartbeat("A", epoch, shards(0, 1), List.of());
        assertEquals(new TreeSet<>(shards(0, 1, 2, 3)), r.assigned().keySet());
        ctx.persist(ctx.coordinator().reshardGroup(0, GROUP, STREAM, 2, ChangeReason.RESHARD_ROLLBACK));
        assertEquals(2, ctx.group().config().streams().get(STREAM));
        GroupConfigRefusedException refused = assertThrows(
                GroupConfigRefusedException.class, () -> ctx.coordinator().configureGroup(0,
                        ctx.group().config().withStreams(Map.of(STREAM, 4)).withRevision(8),
                        ChangeReason.CONFIG_CHANGED));
        assertTrue(refused.getMessage().contains("bin/shardline streams reshard"),
                refused.getMessage());
    }

    @Test
    void newLeaderReplaysTheSameStateAndExpiresNobodyDuringGrace() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(4);
        ctx.join("A");
        int epochB = ctx.join("B").memberEpoch();
        ctx.sleep(2500);
        GroupView before = ctx.coordinator().describe(GROUP).orElseThrow();
        long oldLeader = ctx.leaderEpoch();
        long oldRevision = ctx.revision();
        GroupCoordinator deposed = ctx.coordinator();
        ctx.becomeLeader();
        GroupView after = ctx.coordinator().describe(GROUP).orElseThrow();
        assertEquals(before.owners(), after.owners());
        assertEquals(before.groupEpoch(), after.groupEpoch());
        assertEquals(before.members().stream().map(m -> m.assigned()).toList(),
                after.members().stream().map(m -> m.assigned()).toList());
        // A was last heard at 0: the old leader would expire it at 3000; the new one waits until 2500 + 3000.
        ctx.sleep(2999);
        assertNotNull(ctx.member("A"));
        ctx.heartbeat("B", epochB, List.of(), List.of());
        ctx.sleep(1);
        assertNull(ctx.member("A"));
        // The deposed leader keeps deciding, but the store refuses its writes.
        var zombie = deposed.tick(10_000);
        assertTrue(!zombie.records().isEmpty());
        assertThrows(GroupLogModel.Refused.class,
                () -> ctx.store().append(oldLeader, oldRevision, "", zombie.records(), zombie.events()));
    }

    @Test
    void newLeaderThatKnowsWhenItsPredecessorLastWroteWaitsOnlyForTheLeasesThatCanRemain() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(4);
        int epochA = ctx.join("A").memberEpoch();
        int epochB = ctx.join("B").memberEpoch();
        ctx.sleep(1000);
        ctx.heartbeat("A", epochA, List.of(), List.of());
        ctx.sleep(1000);
        ctx.heartbeat("B", epochB, List.of(), List.of());
        // The old leader dies after its last accepted write at 2000; the successor claims at 2500. Without that
        // knowledge it would keep A until 2500 + 3000.
        ctx.sleep(500);
        ctx.becomeLeader(500);
        // No lease it granted ends after 2000 + 3000 (the members' self-fence margin covers clock rates).
        ctx.sleep(2499);
        ctx.heartbeat("B", epochB, List.of(), List.of());
        assertNotNull(ctx.member("A"));
        ctx.sleep(1);
        assertNull(ctx.member("A"));
        assertNotNull(ctx.member("B"));
    }

    @Test
    void inheritedLeaseIsAWholeSessionWhenThePredecessorIsUnknownAndWhatRemainsOfOneOtherwise() {
        assertEquals(3000, GroupCoordinator.inheritedLeaseMs(3000, 0));
        assertEquals(2900, GroupCoordinator.inheritedLeaseMs(3000, 100));
        assertEquals(2000, GroupCoordinator.inheritedLeaseMs(3000, 1000));
        assertEquals(0, GroupCoordinator.inheritedLeaseMs(3000, 3000));
        assertEquals(0, GroupCoordinator.inheritedLeaseMs(3000, 60_000));
    }

    @Test
    void snapshotReplaysToTheSameReadModel() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(4);
        int epochA = ctx.join("A").memberEpoch();
        ctx.join("B");
        ctx.heartbeat("A", epochA, shards(0, 1, 2, 3), List.of());
        GroupCoordinator copy = new GroupCoordinator(name -> null, CoordinatorMetrics.NOOP);
        ctx.coordinator().snapshot().forEach(copy::replay);
        GroupView original = ctx.coordinator().describe(GROUP).orElseThrow();
        GroupView replayed = copy.describe(GROUP).orElseThrow();
        assertEquals(original.owners(), replayed.owners());
        assertEquals(original.groupEpoch(), replayed.groupEpoch());
        assertEquals(original.assignmentEpoch(), replayed.assignmentEpoch());
        assertEquals(original.members().stream().map(m -> List.of(m.state(), m.memberEpoch(), m.assigned(),
                m.revoking(), m.target())).toList(), replayed.members().stream().map(m -> List.of(m.state(),
                m.memberEpoch(), m.assigned(), m.revoking(), m.target())).toList());
    }

    @Test
    void auditNamesJoinsEpochBumpsAndShardMoves() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        ctx.join("A");
        List<AuditType> types = ctx.audit().stream().map(AuditEvent::type).toList();
        assertTrue(types.containsAll(List.of(AuditType.GROUP_EPOCH_BUMPED, AuditType.MEMBER_JOINED,
                AuditType.ASSIGNMENT_EPOCH_BUMPED, AuditType.SHARD_GRANTED)), types.toString());
        ShardId s0 = shards(0).get(0);
        assertTrue(ctx.audit().stream().anyMatch(e -> e.type() == AuditType.SHARD_GRANTED
                && e.shard().equals(Optional.of(s0)) && e.memberEpoch() == 1));
        assertEquals(new TreeMap<>(Map.of(s0, 1, shards(1).get(0), 1)), ctx.member("A").assigned());
    }
}
