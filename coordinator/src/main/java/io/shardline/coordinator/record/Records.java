package io.shardline.coordinator.record;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.Member;
import java.util.Collection;
import java.util.TreeSet;

/** The only place coordinator records are built (Kafka's {@code GroupCoordinatorRecordHelpers}). */
public final class Records {

    private Records() {
    }

    /** The group's configuration. */
    public static GroupConfigRecord newGroupConfigRecord(GroupConfig config) {
        return new GroupConfigRecord(config);
    }

    /** The group epoch moved to {@code groupEpoch}. */
    public static GroupEpochRecord newGroupEpochRecord(String groupId, int groupEpoch, ChangeReason reason) {
        return new GroupEpochRecord(groupId, groupEpoch, reason);
    }

    /** The member's identity and subscriptions. */
    public static MemberMetadataRecord newMemberMetadataRecord(String groupId, Member member) {
        return new MemberMetadataRecord(groupId, member.memberId(), member.instanceId(), member.rack(),
                member.subscriptions(), member.weight());
    }

    /** The member is gone. */
    public static MemberRemovedRecord newMemberTombstone(String groupId, Member member, ChangeReason reason) {
        return new MemberRemovedRecord(groupId, member.memberId(), member.memberEpoch(), reason);
    }

    /** The member's target. */
    public static TargetAssignmentRecord newTargetAssignmentRecord(String groupId, String memberId,
            Collection<ShardId> shards) {
        return new TargetAssignmentRecord(groupId, memberId, new TreeSet<>(shards));
    }

    /** The target was computed for {@code groupEpoch} with {@code assignmentEpoch}. */
    public static AssignmentEpochRecord newAssignmentEpochRecord(String groupId, int assignmentEpoch, int groupEpoch) {
        return new AssignmentEpochRecord(groupId, assignmentEpoch, groupEpoch);
    }

    /** The member's current assignment, epochs and state. */
    public static MemberStateRecord newMemberStateRecord(String groupId, Member member) {
        return new MemberStateRecord(groupId, member.memberId(), member.memberEpoch(), member.previousMemberEpoch(),
                member.state(), member.assigned(), member.revoking());
    }

    /** {@code shard} is given to {@code memberId} with {@code ownerEpoch}. */
    public static ShardOwnerRecord newShardOwnerRecord(String groupId, ShardId shard, String memberId, int ownerEpoch) {
        return new ShardOwnerRecord(groupId, shard, memberId, ownerEpoch);
    }

    /** {@code shard}, held by {@code memberId} with {@code ownerEpoch}, is free. */
    public static ShardReleasedRecord newShardReleasedRecord(String groupId, ShardId shard, String memberId,
            int ownerEpoch, ChangeReason reason) {
        return new ShardReleasedRecord(groupId, shard, memberId, ownerEpoch, reason);
    }

    /** The group is gone. */
    public static GroupDeletedRecord newGroupTombstone(String groupId) {
        return new GroupDeletedRecord(groupId);
    }
}
