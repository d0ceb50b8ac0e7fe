package io.shardline.coordinator.record;

import io.shardline.api.handler.ShardId;
import java.util.Objects;

/**
 * Shard {@code shard} is given to {@code memberId} with owner epoch {@code ownerEpoch} (its fencing token).
 * The host persists it and writes {@code {<stream>:<i>}:owner:<groupId> = (memberId, ownerEpoch)} BEFORE the
 * member is told, so the member's fenced reads and acknowledgements pass and its predecessor's fail. The owner
 * key is per group: groups reading the same stream have their own owner epochs and never fence each other.
 *
 * @param groupId the group
 * @param shard the shard
 * @param memberId the new owner
 * @param ownerEpoch the shard's new owner epoch (previous + 1)
 */
public record ShardOwnerRecord(String groupId, ShardId shard, String memberId, int ownerEpoch)
        implements CoordinatorRecord {

    /** Validates. */
    public ShardOwnerRecord {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(memberId, "memberId");
        if (ownerEpoch <= 0) {
            throw new IllegalArgumentException("owner epoch of " + shard + " must be > 0, was " + ownerEpoch);
        }
    }
}
