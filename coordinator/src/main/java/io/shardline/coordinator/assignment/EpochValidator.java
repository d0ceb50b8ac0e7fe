package io.shardline.coordinator.assignment;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.protocol.FencedMemberEpochException;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import io.shardline.coordinator.protocol.StaleAssignmentEpochException;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;

/**
 * The one place epochs and ownership reports are checked, and new lifecycle epochs are chosen.
 *
 * <p>Accepted: the member's current epoch, and its previous epoch after a grant (the answer carrying the grant
 * may have been lost; such a request renews the lease and gets the current answer, but releases nothing).
 * Everything else is fenced without any change of state, so a stale or duplicated request is harmless.
 */
public final class EpochValidator {

    /** Which accepted epoch a request carried. */
    public enum EpochMatch {
        /** The member's current epoch: the report is fully trusted. */
        CURRENT,
        /** The epoch before the last grant: renew the lease and resend the current answer. */
        PREVIOUS
    }

    private EpochValidator() {
    }

    /**
     * Checks {@code received} against the member's epochs.
     *
     * @throws FencedMemberEpochException naming both epochs and the remedy
     */
    public static EpochMatch throwIfMemberEpochIsInvalid(Member member, int received) {
        if (received == member.memberEpoch()) {
            return EpochMatch.CURRENT;
        }
        if (received > 0 && received == member.previousMemberEpoch()) {
            return EpochMatch.PREVIOUS;
        }
        throw new FencedMemberEpochException("member '" + member.memberId() + "' sent epoch " + received
                + " but its epoch is " + member.memberEpoch() + " (previous " + member.previousMemberEpoch()
                + "): stop every shard and rejoin with epoch 0");
    }

    /**
     * Checks the assignment epoch the member says it applied.
     *
     * @throws StaleAssignmentEpochException when it is newer than any epoch this coordinator issued
     */
    public static void throwIfAssignmentEpochIsInvalid(String memberId, int received, int assignmentEpoch) {
        if (received > assignmentEpoch) {
            throw new StaleAssignmentEpochException("member '" + memberId + "' applied assignment epoch " + received
                    + " but the group is at " + assignmentEpoch + ": its state comes from a deposed coordinator; "
                    + "stop every shard and rejoin with epoch 0");
        }
    }

    /**
     * Checks an ownership report under the current epoch: owned and draining shards must be held by the member
     * (assigned, or revoking: taken away but not yet confirmed), which also means no other member holds them.
     * A {@code REVOKED} report of a shard the member no longer holds is a duplicate terminal report: ignored.
     *
     * @return a description of the first violation, or empty when the report is valid
     */
    public static Optional<String> ownershipViolation(Member member, SortedSet<ShardId> owned,
            List<RevokeReport> revoking) {
        for (ShardId s : owned) {
            if (!member.holds(s)) {
                return Optional.of("member '" + member.memberId() + "' (epoch " + member.memberEpoch()
                        + ") claims to own " + s + " which is neither assigned to it nor being revoked from it");
            }
        }
        for (RevokeReport r : revoking) {
            if (r.state() == RevokeState.DRAINING && !member.holds(r.shard())) {
                return Optional.of("member '" + member.memberId() + "' (epoch " + member.memberEpoch()
                        + ") reports draining " + r.shard() + " which it does not hold");
            }
        }
        return Optional.empty();
    }

    /**
     * The epoch of a new lifecycle (join, rejoin, static replacement) or a fence: above the group epoch and the
     * member's own epoch, so no request of an earlier incarnation of the same member id can match it.
     *
     * @param groupEpoch the group epoch before the change
     * @param existing the member's previous state, or null for a new member id
     */
    public static int nextLifecycleEpoch(int groupEpoch, Member existing) {
        int floor = existing == null ? groupEpoch : Math.max(groupEpoch, existing.memberEpoch());
        return floor + 1;
    }
}
