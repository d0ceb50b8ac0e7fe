package io.shardline.coordinator.record;

import java.util.Objects;

/**
 * Tombstone: the member is gone (left, expired, or replaced by a static successor) together with its target
 * and current assignment. Its shards were released by {@link ShardReleasedRecord}s before this record.
 *
 * @param groupId the group
 * @param memberId the member
 * @param lastMemberEpoch the member's last epoch (the group epoch moves past it, so a later incarnation of the
 *     same id gets a fresh epoch)
 * @param reason why
 */
public record MemberRemovedRecord(String groupId, String memberId, int lastMemberEpoch, ChangeReason reason)
        implements CoordinatorRecord {

    /** Validates. */
    public MemberRemovedRecord {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(memberId, "memberId");
        Objects.requireNonNull(reason, "reason");
    }
}
