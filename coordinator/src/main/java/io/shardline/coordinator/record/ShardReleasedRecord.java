package io.shardline.coordinator.record;

import io.shardline.api.handler.ShardId;
import java.util.Objects;

/**
 * Shard {@code shard} is free: its holder reported it revoked, left, or was expired. The owner epoch is kept so
 * the next grant gets a higher one. The owner key in Redis is left as is until the next grant overwrites it.
 *
 * @param groupId the group
 * @param shard the shard
 * @param memberId the member that held it
 * @param ownerEpoch the owner epoch it held it with
 * @param reason why it was released
 */
public record ShardReleasedRecord(String groupId, ShardId shard, String memberId, int ownerEpoch, ChangeReason reason)
        implements CoordinatorRecord {

    /** Validates. */
    public ShardReleasedRecord {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(memberId, "memberId");
        Objects.requireNonNull(reason, "reason");
    }
}
