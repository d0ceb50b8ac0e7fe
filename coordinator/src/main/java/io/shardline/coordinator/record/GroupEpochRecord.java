package io.shardline.coordinator.record;

import java.util.Objects;

/**
 * The group epoch moved (membership or shard set changed).
 *
 * @param groupId the group
 * @param groupEpoch the new group epoch
 * @param reason why
 */
public record GroupEpochRecord(String groupId, int groupEpoch, ChangeReason reason) implements CoordinatorRecord {

    /** Validates. */
    public GroupEpochRecord {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(reason, "reason");
    }
}
