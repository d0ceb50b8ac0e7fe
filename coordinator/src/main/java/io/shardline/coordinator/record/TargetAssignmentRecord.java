package io.shardline.coordinator.record;

import io.shardline.api.handler.ShardId;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The target assignment of one member: the shards it should own once the group converges. Written only for
 * members whose target changed, followed by one {@link AssignmentEpochRecord}.
 *
 * @param groupId the group
 * @param memberId the member
 * @param shards its target shards
 */
public record TargetAssignmentRecord(String groupId, String memberId, SortedSet<ShardId> shards)
        implements CoordinatorRecord {

    /** Validates and copies. */
    public TargetAssignmentRecord {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(memberId, "memberId");
        shards = Collections.unmodifiableSortedSet(new TreeSet<>(shards));
    }
}
