package io.shardline.coordinator.group;

import io.shardline.api.handler.ShardId;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;

/**
 * The read model of one group that REST serves: epochs, configuration, members with target vs current
 * assignment and pending revocations, and the shard owner table. Immutable snapshot.
 *
 * @param groupId the group
 * @param groupEpoch the group epoch
 * @param assignmentEpoch the assignment epoch
 * @param config the configuration
 * @param stable true when every member is {@code STABLE} (or a reserved static member)
 * @param members the members, by member id
 * @param owners shard to owner and owner epoch, for every shard ever granted
 * @param assignorFailure the last assignor failure since its last success (the group is on its previous
 *     target), or null
 */
public record GroupView(
        String groupId,
        int groupEpoch,
        int assignmentEpoch,
        GroupConfig config,
        boolean stable,
        List<MemberView> members,
        SortedMap<ShardId, ShardOwner> owners,
        AssignorFailure assignorFailure) {

    /** Copies. */
    public GroupView {
        members = List.copyOf(members);
    }

    /** The view of {@code group} now. */
    public static GroupView of(Group group) {
        List<MemberView> members = new ArrayList<>();
        boolean stable = true;
        for (Member m : group.members().values()) {
            members.add(MemberView.of(group, m));
            stable &= m.state() == MemberState.STABLE || m.state() == MemberState.LEFT_STATIC;
        }
        return new GroupView(group.groupId(), group.groupEpoch(), group.assignmentEpoch(), group.config(), stable,
                members, group.owners(), group.assignorFailure());
    }
}
