package io.shardline.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.store.RedisGroupLog.LeaderStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * {@link LeaderRoleMachine} under a manual clock: one test per edge of {@link LeaderRole}, the refused edges, and the
 * claim, deposed and hand-over sequences. Worker {@code b} is the host under test; {@code a} is older.
 */
class LeaderRoleMachineTest {

    private static final ClusterMember A = new ClusterMember("node-a", "a", "127.0.0.1:1", Map.of());
    private static final ClusterMember B = new ClusterMember("node-b", "b", "127.0.0.1:2", Map.of());
    private static final ClusterMember C = new ClusterMember("node-c", "c", "127.0.0.1:3", Map.of());
    /** Session 10 s, heartbeat 1 s, tick 100 ms: a holder silent for 2,666 ms is replaced. */
    private static final long SILENCE_MS = LeaderSuccession.silenceMs(100, 1_000, 10_000);

    private long now = 1_000_000;
    private final LeaderRoleMachine machine = new LeaderRoleMachine("b", () -> now, SILENCE_MS);

    private static LeaderView view(ClusterMember... members) {
        return new LeaderView(List.of(members), B);
    }

    /** FOLLOWER -> CLAIMING -> LEADER: the view names b the oldest, its claim wins; returns the leader's term. */
    private int lead(long epoch) {
        List<LeaderAction> actions = machine.viewChanged(view(B, C), false);
        LeaderAction.Claim claim = (LeaderAction.Claim) actions.get(0);
        LeaderAction.Lead lead = machine.claimWon(claim.term(), epoch, -1, now).orElseThrow();
        machine.lead(lead, "test");
        return claim.term();
    }

    @Test
    void followerToClaimingWhenTheViewNamesItTheOldest() {
        List<LeaderAction> actions = machine.viewChanged(view(B, A), false);
        assertEquals(List.of(new LeaderAction.Claim(1, 0, SILENCE_MS, 0, null)), actions);
        assertEquals(LeaderRole.CLAIMING, machine.role());
        assertTrue(machine.claiming(1));
    }

    @Test
    void followerStaysWhileTheOldestLeadsAndStillWrites() {
        assertEquals(List.of(), machine.viewChanged(view(A, B), false));
        assertEquals(Optional.empty(), machine.watched(new LeaderStatus(3, "a", 500, 2), false));
        assertEquals(LeaderRole.FOLLOWER, machine.role());
        assertEquals(Optional.of("a"), machine.liveHolder());
        assertTrue(machine.watches(false));
    }

    /**
     * What a NOT_COORDINATOR answer tells members of the worker it names: how long the holder has written nothing, as
     * last read plus the time since (a member does not go back to a holder silent since it gave up on it).
     */
    @Test
    void theHoldersSilenceIsTheLastReadsAgoPlusTheTimeSince() {
        assertEquals(-1, machine.silenceOf("a"), "nothing read yet");
        machine.viewChanged(view(A, B, C), false);
        machine.watched(new LeaderStatus(3, "a", 500, 3), false);
        now += 200;
        assertEquals(700, machine.silenceOf("a"));
        assertEquals(-1, machine.silenceOf("c"), "not the holder");
        machine.watched(new LeaderStatus(3, "a", -1, 3), false);
        assertEquals(-1, machine.silenceOf("a"), "its last write unknown");
    }

    @Test
    void claimingToLeaderInheritsLeasesUpToThePredecessorsLastWrite() {
        LeaderAction.Claim claim = (LeaderAction.Claim) machine.viewChanged(view(B, A), false).get(0);
        long claimedAt = now;
        now += 150; // the replay after the claim
        LeaderAction.Lead lead = machine.claimWon(claim.term(), 7, 3_000, claimedAt).orElseThrow();
        assertEquals(new LeaderAction.Lead(claim.term(), 7, now, 3_150), lead);
        machine.lead(lead, "took leader epoch 7");
        assertEquals(LeaderRole.LEADER, machine.role());
        assertEquals(7, machine.leaderEpoch());
        assertTrue(machine.leads(claim.term()));
        assertFalse(machine.watches(false));
    }

    @Test
    void anUnknownLastWriteLeavesInheritedLeasesAWholeSession() {
        LeaderAction.Claim claim = (LeaderAction.Claim) machine.viewChanged(view(B, A), false).get(0);
        assertEquals(0, machine.claimWon(claim.term(), 1, -1, now).orElseThrow().quietMs());
    }

    @Test
    void claimingToFollowerWhenTheClaimIsRefused() {
        LeaderAction.Claim claim = (LeaderAction.Claim) machine.viewChanged(view(B, A), false).get(0);
        machine.claimRefused(claim.term(), new LeaderStatus(4, "a", 100, 2), "worker a holds leader epoch 4");
        assertEquals(LeaderRole.FOLLOWER, machine.role());
        assertFalse(machine.claiming(claim.term()));
        assertEquals(Optional.of("a"), machine.liveHolder());
        assertEquals(Optional.empty(), machine.claimWon(claim.term(), 5, -1, now), "a late win of an ended term");
    }

    @Test
    void claimingToClaimingWhenAHandOverArrivesDuringAClaim() {
        LeaderAction.Claim first = (LeaderAction.Claim) machine.viewChanged(view(B, A), false).get(0);
        LeaderAction.Claim handedOver = machine.handedOver("a");
        assertEquals(new LeaderAction.Claim(first.term() + 1, 0, -1, 0, "a"), handedOver);
        assertEquals(LeaderRole.CLAIMING, machine.role());
        assertFalse(machine.claiming(first.term()));
        assertTrue(machine.claiming(handedOver.term()));
    }

    @Test
    void aFailedClaimAttemptIsRetriedBackedOff() {
        LeaderAction.Claim claim = machine.handedOver("a");
        LeaderAction.Claim second = machine.claimFailed(claim);
        assertEquals(new LeaderAction.Claim(claim.term(), 1, -1, 100, "a"), second);
        LeaderAction.Claim late = claim;
        for (int i = 0; i < 8; i++) {
            late = machine.claimFailed(late);
        }
        assertEquals(1_600, late.delayMs());
        assertEquals(LeaderRole.CLAIMING, machine.role());
    }

    @Test
    void leaderToDeposedWhenAWriteIsRefusedForANewerLeaderEpoch() {
        int term = lead(3);
        List<LeaderAction> actions = machine.writeFailed(true, "STALE_LEADER_EPOCH", false);
        assertEquals(List.of(new LeaderAction.StepDown(true)), actions);
        assertEquals(LeaderRole.DEPOSED, machine.role());
        assertFalse(machine.leads(term));
    }

    @Test
    void leaderToFollowerToClaimingWhenAWriteFails() {
        int term = lead(3);
        List<LeaderAction> actions = machine.writeFailed(false, "connection closed", false);
        assertEquals(List.of(new LeaderAction.StepDown(true), new LeaderAction.Claim(term + 2, 0, SILENCE_MS, 0, null)),
                actions);
        assertEquals(LeaderRole.CLAIMING, machine.role());
    }

    @Test
    void leaderToFollowerOnceTheViewsOldestTookLeadershipOver() {
        lead(3);
        List<LeaderAction> actions = machine.viewChanged(view(A, B, C), false);
        assertEquals(List.of(new LeaderAction.RecordView(3, 3), new LeaderAction.HandOver("a", 3)), actions);
        assertEquals(List.of(new LeaderAction.RecordView(3, 3)), machine.viewChanged(view(A, B, C), false),
                "one hand-over at a time");
        assertEquals(Optional.of(new LeaderAction.StepDown(true)), machine.handOverEnded("a", Optional.empty()));
        assertEquals(LeaderRole.FOLLOWER, machine.role());
    }

    @Test
    void aLeaderKeepsLeadingWhenTheOldestDidNotTakeOverAndIsNoLongerTheOldest() {
        lead(3);
        machine.viewChanged(view(A, B), false);
        machine.viewChanged(view(B), false);
        assertEquals(Optional.empty(), machine.handOverEnded("a", Optional.of(new IllegalStateException("timeout"))));
        assertEquals(LeaderRole.LEADER, machine.role());
    }

    @Test
    void aLeaderStepsDownWhenTheOldestDidNotTakeOverButStillIsTheOldest() {
        lead(3);
        machine.viewChanged(view(A, B), false);
        assertEquals(Optional.of(new LeaderAction.StepDown(true)),
                machine.handOverEnded("a", Optional.of(new IllegalStateException("timeout"))));
        assertEquals(LeaderRole.FOLLOWER, machine.role());
    }

    @Test
    void deposedToFollowerWhenAHandOverStartedBeforeIsAnswered() {
        lead(3);
        machine.viewChanged(view(A, B), false);
        machine.writeFailed(true, "STALE_LEADER_EPOCH", false);
        assertEquals(Optional.of(new LeaderAction.StepDown(false)), machine.handOverEnded("a", Optional.empty()));
        assertEquals(LeaderRole.FOLLOWER, machine.role());
    }

    @Test
    void deposedToClaimingOnceTheNewHolderWentSilent() {
        lead(3);
        machine.viewChanged(view(B, C), false);
        machine.writeFailed(true, "STALE_LEADER_EPOCH", false);
        assertEquals(Optional.empty(), machine.watched(new LeaderStatus(4, "c", 0, 2), false));
        assertEquals(LeaderRole.DEPOSED, machine.role());
        now += SILENCE_MS;
        Optional<LeaderAction> claim = machine.watched(new LeaderStatus(4, "c", SILENCE_MS, 2), false);
        assertThat(claim).containsInstanceOf(LeaderAction.Claim.class);
        assertEquals(LeaderRole.CLAIMING, machine.role());
    }

    @Test
    void anyRoleToResignedOnceStopping() {
        assertEquals(new LeaderAction.StepDown(false), machine.resign("stopping"));
        assertEquals(LeaderRole.RESIGNED, machine.role());
        assertEquals(new LeaderAction.StepDown(false), machine.resign("stopping again"));
        assertFalse(machine.watches(true));
        LeaderRoleMachine leading = new LeaderRoleMachine("b", () -> now, SILENCE_MS);
        LeaderAction.Claim claim = (LeaderAction.Claim) leading.viewChanged(view(B), false).get(0);
        leading.lead(leading.claimWon(claim.term(), 1, -1, now).orElseThrow(), "test");
        assertEquals(new LeaderAction.StepDown(true), leading.resign("stopping; no other worker to hand over to"));
    }

    @Test
    void followerToResignedInsteadOfClaimingWhileStopping() {
        assertEquals(List.of(), machine.viewChanged(view(B, A), true));
        assertEquals(LeaderRole.RESIGNED, machine.role());
    }

    @Test
    void theGateRefusesEdgesTheRoleDoesNotList() {
        int term = lead(3);
        assertThatThrownBy(() -> machine.handedOver("a")).isInstanceOf(IllegalStateException.class)
                .hasMessage("Coordinator on b: illegal transition LEADER -> CLAIMING (leader epoch 3): worker a hands "
                        + "leadership over");
        assertThatThrownBy(() -> machine.lead(new LeaderAction.Lead(term, 4, now, 0), "again"))
                .hasMessageContaining("illegal transition LEADER -> LEADER");
        machine.resign("stopping");
        assertThatThrownBy(() -> machine.handedOver("a")).hasMessageContaining("RESIGNED -> CLAIMING");
        for (LeaderRole role : LeaderRole.values()) {
            assertTrue(LeaderRole.RESIGNED.previousValidStates().contains(role), role + " -> RESIGNED");
        }
        assertFalse(LeaderRole.LEADER.previousValidStates().contains(LeaderRole.FOLLOWER));
        assertFalse(LeaderRole.DEPOSED.previousValidStates().contains(LeaderRole.FOLLOWER));
    }

    @Test
    void claimSequenceAnswersOnceAsANewLeader() {
        lead(1);
        now += 40;
        assertEquals(OptionalLong.of(40), machine.firstAnswer());
        assertEquals(OptionalLong.empty(), machine.firstAnswer());
    }

    @Test
    void leadershipIsNeverHandedBackToTheWorkerItWasTakenFrom() {
        machine.viewChanged(view(A, B), false);
        now += SILENCE_MS;
        LeaderAction claim = machine.watched(new LeaderStatus(2, "a", SILENCE_MS, 2), false).orElseThrow();
        int term = ((LeaderAction.Claim) claim).term();
        machine.lead(machine.claimWon(term, 3, 2_700, now).orElseThrow(), "took over from a silent a");
        assertEquals(List.of(new LeaderAction.RecordView(3, 2)), machine.viewChanged(view(A, B), false),
                "a frozen a still first in the view is not handed leadership back");
        assertEquals(LeaderRole.LEADER, machine.role());
    }
}
