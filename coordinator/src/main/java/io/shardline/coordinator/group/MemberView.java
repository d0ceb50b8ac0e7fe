package io.shardline.coordinator.group;

import io.shardline.api.handler.ShardId;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * One member in the read model REST serves. Immutable.
 *
 * @param memberId the member id
 * @param instanceId its static instance id, if any
 * @param rack its rack, if known
 * @param subscriptions the streams it reads
 * @param state its reconciliation state
 * @param memberEpoch its epoch
 * @param leaseDeadlineMs when the coordinator may expire it (coordinator clock), -1 if not yet timed
 * @param reportedAssignmentEpoch the assignment epoch it last reported applied, -1 if none
 * @param target the shards it should own
 * @param assigned the shards it may own now, with owner epochs (current assignment)
 * @param pending target shards still held by their previous owner
 * @param revoking shards it must still report revoked (pending revocations)
 * @param revocationDeadlineMs when its pending revocations run out of time and it is fenced (rebalance timeout,
 *     coordinator clock), -1 when it has nothing to revoke
 * @param weight its weight (share of shards relative to the others)
 */
public record MemberView(
        String memberId,
        Optional<String> instanceId,
        Optional<String> rack,
        SortedSet<String> subscriptions,
        MemberState state,
        int memberEpoch,
        long leaseDeadlineMs,
        int reportedAssignmentEpoch,
        SortedSet<ShardId> target,
        SortedMap<ShardId, Integer> assigned,
        SortedSet<ShardId> pending,
        SortedSet<ShardId> revoking,
        long revocationDeadlineMs,
        int weight) {

    /** The view of {@code member} in {@code group}. */
    public static MemberView of(Group group, Member member) {
        Long lease = group.leaseDeadline(member.memberId());
        return new MemberView(member.memberId(), member.instanceId(), member.rack(), member.subscriptions(),
                member.state(), member.memberEpoch(), lease == null ? -1 : lease,
                group.reportedAssignmentEpoch(member.memberId()), group.target(member.memberId()),
                member.assigned(), group.pending(member), member.revoking(),
                group.revocationDeadline(member.memberId()), member.weight());
    }
}
