package io.shardline.coordinator.record;

import java.util.Objects;

/**
 * Tombstone: the group is gone (deleted by an operator while it had no member). Replaying it forgets the group and
 * everything recorded about it; a later configuration record of the same id starts a new group from epoch 0.
 *
 * @param groupId the group
 */
public record GroupDeletedRecord(String groupId) implements CoordinatorRecord {

    /** Validates. */
    public GroupDeletedRecord {
        Objects.requireNonNull(groupId, "groupId");
    }
}
