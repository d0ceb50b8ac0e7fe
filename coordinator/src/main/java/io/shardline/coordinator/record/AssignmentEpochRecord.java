package io.shardline.coordinator.record;

import java.util.Objects;

/**
 * The target assignment was computed for {@code groupEpoch}; {@code assignmentEpoch} grew by one if the target
 * changed and stayed otherwise.
 *
 * @param groupId the group
 * @param assignmentEpoch the assignment epoch
 * @param groupEpoch the group epoch the target was computed for
 */
public record AssignmentEpochRecord(String groupId, int assignmentEpoch, int groupEpoch) implements CoordinatorRecord {

    /** Validates. */
    public AssignmentEpochRecord {
        Objects.requireNonNull(groupId, "groupId");
    }
}
