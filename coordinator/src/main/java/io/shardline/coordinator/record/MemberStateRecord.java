package io.shardline.coordinator.record;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.MemberState;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A member's current assignment as the coordinator accepted it: epochs, state, granted and revoking shards.
 *
 * @param groupId the group
 * @param memberId the member
 * @param memberEpoch its epoch
 * @param previousMemberEpoch the epoch still accepted after a grant, or -1
 * @param state its reconciliation state
 * @param assigned granted shards with owner epochs
 * @param revoking shards it must still report revoked
 */
public record MemberStateRecord(
        String groupId,
        String memberId,
        int memberEpoch,
        int previousMemberEpoch,
        MemberState state,
        SortedMap<ShardId, Integer> assigned,
        SortedSet<ShardId> revoking) implements CoordinatorRecord {

    /** Validates and copies. */
    public MemberStateRecord {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(memberId, "memberId");
        Objects.requireNonNull(state, "state");
        assigned = Collections.unmodifiableSortedMap(new TreeMap<>(assigned));
        revoking = Collections.unmodifiableSortedSet(new TreeSet<>(revoking));
    }
}
