package io.shardline.coordinator.record;

/**
 * One coordinator decision that must survive a leader change. Records are the only way coordinator state
 * changes: handlers emit them, {@code GroupCoordinator.replay} applies them, and a new leader rebuilds the same
 * state by replaying the store. Records are immutable values, built by {@link Records}.
 */
public sealed interface CoordinatorRecord permits
        GroupConfigRecord,
        GroupEpochRecord,
        MemberMetadataRecord,
        MemberRemovedRecord,
        TargetAssignmentRecord,
        AssignmentEpochRecord,
        MemberStateRecord,
        ShardOwnerRecord,
        ShardReleasedRecord,
        GroupDeletedRecord {

    /** The group the record belongs to. */
    String groupId();
}
