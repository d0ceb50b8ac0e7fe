package io.shardline.coordinator.assignment;

import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.assignment.EpochValidator.EpochMatch;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.protocol.FencedMemberEpochException;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import io.shardline.coordinator.protocol.StaleAssignmentEpochException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class EpochValidatorTest {

    private static final ShardId S0 = shards(0).get(0);
    private static final ShardId S1 = shards(1).get(0);
    private static final ShardId S2 = shards(2).get(0);

    private final Member member = new Member.Builder("A").setEpochs(7, 6).setState(MemberState.UNREVOKED_SHARDS)
            .setAssigned(Map.of(S0, 1)).setRevoking(List.of(S1)).build();

    @Test
    void acceptsCurrentAndPreviousEpoch() {
        assertEquals(EpochMatch.CURRENT, EpochValidator.throwIfMemberEpochIsInvalid(member, 7));
        assertEquals(EpochMatch.PREVIOUS, EpochValidator.throwIfMemberEpochIsInvalid(member, 6));
    }

    @Test
    void fencesOlderAndNewerEpochsNamingBoth() {
        FencedMemberEpochException e = assertThrows(FencedMemberEpochException.class,
                () -> EpochValidator.throwIfMemberEpochIsInvalid(member, 5));
        assertTrue(e.getMessage().contains("sent epoch 5 but its epoch is 7"), e.getMessage());
        assertThrows(FencedMemberEpochException.class, () -> EpochValidator.throwIfMemberEpochIsInvalid(member, 8));
    }

    @Test
    void previousEpochNotAcceptedAfterFence() {
        Member fenced = new Member.Builder(member).resetMemberEpoch(8).build();
        assertThrows(FencedMemberEpochException.class, () -> EpochValidator.throwIfMemberEpochIsInvalid(fenced, 7));
    }

    @Test
    void refusesAssignmentEpochFromTheFuture() {
        EpochValidator.throwIfAssignmentEpochIsInvalid("A", 3, 3);
        assertThrows(StaleAssignmentEpochException.class, () -> EpochValidator.throwIfAssignmentEpochIsInvalid("A", 4, 3));
    }

    @Test
    void ownedMustBeHeld() {
        assertEquals(Optional.empty(), EpochValidator.ownershipViolation(member, new TreeSet<>(List.of(S0, S1)),
                List.of()));
        assertTrue(EpochValidator.ownershipViolation(member, new TreeSet<>(List.of(S2)), List.of()).isPresent());
    }

    @Test
    void drainingMustBeHeldButDuplicateRevokedIsIgnored() {
        assertTrue(EpochValidator.ownershipViolation(member, new TreeSet<>(),
                List.of(new RevokeReport(S2, RevokeState.DRAINING))).isPresent());
        assertEquals(Optional.empty(), EpochValidator.ownershipViolation(member, new TreeSet<>(),
                List.of(new RevokeReport(S2, RevokeState.REVOKED))));
    }

    @Test
    void lifecycleEpochIsAboveGroupAndMemberEpochs() {
        assertEquals(11, EpochValidator.nextLifecycleEpoch(10, member));
        assertEquals(8, EpochValidator.nextLifecycleEpoch(3, member));
        assertEquals(4, EpochValidator.nextLifecycleEpoch(3, null));
    }
}
