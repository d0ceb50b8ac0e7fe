package io.shardline.coordinator.assignment;

import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.group.ShardOwner;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** One test per edge of the coordinator-side member state machine (revoke-before-assign). */
class CurrentAssignmentBuilderTest {

    private static final ShardId S0 = shards(0).get(0);
    private static final ShardId S1 = shards(1).get(0);
    private static final ShardId S2 = shards(2).get(0);

    private final Map<ShardId, ShardOwner> owners = new HashMap<>();

    private static Member mkMember(int epoch, int previous, MemberState state, Map<ShardId, Integer> assigned,
            List<ShardId> revoking) {
        return new Member.Builder("A").setEpochs(epoch, previous).setState(state).setAssigned(assigned)
                .setRevoking(revoking).setSubscriptions(List.of("orders")).build();
    }

    private static SortedSet<ShardId> set(ShardId... shards) {
        return new TreeSet<>(List.of(shards));
    }

    private ShardOwner owner(ShardId s) {
        return owners.getOrDefault(s, ShardOwner.NEVER_OWNED);
    }

    private CurrentAssignmentBuilder builder(Member m, SortedSet<ShardId> target) {
        return new CurrentAssignmentBuilder(m).withTarget(target).withOwners(this::owner);
    }

    @Test
    void testStableToStableWhenTargetUnchanged() {
        Member m = mkMember(5, 4, MemberState.STABLE, Map.of(S0, 1), List.of());
        Reconciliation r = builder(m, set(S0)).withOwnershipReport(set(S0), List.of()).build();
        assertSame(m, r.member());
    }

    @Test
    void testStableToUnrevokedShardsWhenTargetShrinks() {
        owners.put(S0, new ShardOwner("A", 1));
        owners.put(S1, new ShardOwner("A", 3));
        Member m = mkMember(5, 4, MemberState.STABLE, Map.of(S0, 1, S1, 3), List.of());
        Reconciliation r = builder(m, set(S0)).withOwnershipReport(set(S0, S1), List.of()).build();
        assertEquals(mkMember(5, 4, MemberState.UNREVOKED_SHARDS, Map.of(S0, 1), List.of(S1)), r.member());
        assertEquals(set(S1), r.newlyRevoking());
        assertEquals(Map.of(), r.granted());
    }

    @Test
    void testUnrevokedToUnrevokedWhileDraining() {
        owners.put(S1, new ShardOwner("A", 3));
        Member m = mkMember(5, 4, MemberState.UNREVOKED_SHARDS, Map.of(S0, 1), List.of(S1));
        Reconciliation r = builder(m, set(S0))
                .withOwnershipReport(set(S0), List.of(new RevokeReport(S1, RevokeState.DRAINING))).build();
        assertEquals(m, r.member());
        assertEquals(Map.of(), r.released());
    }

    @Test
    void testUnrevokedToStableWhenRevokedReported() {
        owners.put(S1, new ShardOwner("A", 3));
        Member m = mkMember(5, 4, MemberState.UNREVOKED_SHARDS, Map.of(S0, 1), List.of(S1));
        Reconciliation r = builder(m, set(S0))
                .withOwnershipReport(set(S0), List.of(new RevokeReport(S1, RevokeState.REVOKED))).build();
        assertEquals(mkMember(5, 4, MemberState.STABLE, Map.of(S0, 1), List.of()), r.member());
        assertEquals(new TreeMap<>(Map.of(S1, 3)), r.released());
    }

    @Test
    void testUnrevokedReleasedWhenNoLongerReported() {
        owners.put(S1, new ShardOwner("A", 3));
        Member m = mkMember(5, 4, MemberState.UNREVOKED_SHARDS, Map.of(S0, 1), List.of(S1));
        Reconciliation r = builder(m, set(S0)).withOwnershipReport(set(S0), List.of()).build();
        assertEquals(Map.of(S1, 3), r.released());
        assertEquals(MemberState.STABLE, r.member().state());
    }

    @Test
    void testUnrevokedStaysWithoutReport() {
        Member m = mkMember(5, 4, MemberState.UNREVOKED_SHARDS, Map.of(S0, 1), List.of(S1));
        Reconciliation r = builder(m, set(S0)).build();
        assertEquals(m, r.member());
    }

    @Test
    void testUnrevokedToUnreleasedWhenTargetShardStillOwnedByOther() {
        owners.put(S1, new ShardOwner("A", 3));
        owners.put(S2, new ShardOwner("B", 7));
        Member m = mkMember(5, 4, MemberState.UNREVOKED_SHARDS, Map.of(S0, 1), List.of(S1));
        Reconciliation r = builder(m, set(S0, S2))
                .withOwnershipReport(set(S0), List.of(new RevokeReport(S1, RevokeState.REVOKED))).build();
        assertEquals(mkMember(5, 4, MemberState.UNRELEASED_SHARDS, Map.of(S0, 1), List.of()), r.member());
    }

    @Test
    void testUnrevokedToStableWithGrantOnceRevoked() {
        owners.put(S1, new ShardOwner("A", 3));
        owners.put(S2, new ShardOwner(null, 7));
        Member m = mkMember(5, 4, MemberState.UNREVOKED_SHARDS, Map.of(S0, 1), List.of(S1));
        Reconciliation r = builder(m, set(S0, S2))
                .withOwnershipReport(set(S0), List.of(new RevokeReport(S1, RevokeState.REVOKED))).build();
        assertEquals(mkMember(6, 5, MemberState.STABLE, Map.of(S0, 1, S2, 8), List.of()), r.member());
        assertEquals(Map.of(S2, 8), r.granted());
    }

    @Test
    void testStableToUnreleasedWhenNewShardOwnedByOther() {
        owners.put(S1, new ShardOwner("B", 2));
        Member m = mkMember(5, 4, MemberState.STABLE, Map.of(S0, 1), List.of());
        Reconciliation r = builder(m, set(S0, S1)).withOwnershipReport(set(S0), List.of()).build();
        assertEquals(mkMember(5, 4, MemberState.UNRELEASED_SHARDS, Map.of(S0, 1), List.of()), r.member());
    }

    @Test
    void testUnreleasedToStableWhenShardFreed() {
        owners.put(S1, new ShardOwner(null, 2));
        Member m = mkMember(5, 4, MemberState.UNRELEASED_SHARDS, Map.of(S0, 1), List.of());
        Reconciliation r = builder(m, set(S0, S1)).withOwnershipReport(set(S0), List.of()).build();
        assertEquals(mkMember(6, 5, MemberState.STABLE, Map.of(S0, 1, S1, 3), List.of()), r.member());
    }

    @Test
    void testNoGrantWhileRevoking() {
        owners.put(S1, new ShardOwner("A", 3));
        Member m = mkMember(5, 4, MemberState.UNREVOKED_SHARDS, Map.of(), List.of(S1));
        Reconciliation r = builder(m, set(S2)).withOwnershipReport(set(), List.of(
                new RevokeReport(S1, RevokeState.DRAINING))).build();
        assertEquals(Map.of(), r.granted());
        assertEquals(MemberState.UNREVOKED_SHARDS, r.member().state());
    }

    @Test
    void testNoGrantAtEagerBarrier() {
        Member m = mkMember(5, 4, MemberState.UNRELEASED_SHARDS, Map.of(), List.of());
        Reconciliation r = builder(m, set(S0)).withGrantsAllowed(false).withOwnershipReport(set(), List.of()).build();
        assertEquals(Map.of(), r.granted());
        assertEquals(MemberState.UNRELEASED_SHARDS, r.member().state());
    }

    @Test
    void testLeftStaticIsUnchanged() {
        Member m = mkMember(5, 4, MemberState.LEFT_STATIC, Map.of(), List.of());
        assertSame(m, builder(m, set(S0)).build().member());
    }
}
