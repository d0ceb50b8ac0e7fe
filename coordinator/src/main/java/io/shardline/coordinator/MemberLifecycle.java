package io.shardline.coordinator;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.assignment.EpochValidator;
import io.shardline.coordinator.assignment.EpochValidator.EpochMatch;
import io.shardline.coordinator.group.Group;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.protocol.FencedMemberEpochException;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.InvalidOwnershipException;
import io.shardline.coordinator.protocol.InvalidRequestException;
import io.shardline.coordinator.protocol.LeaveRequest;
import io.shardline.coordinator.protocol.UnknownMemberIdException;
import io.shardline.coordinator.protocol.UnreleasedInstanceIdException;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.Records;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;

/**
 * The member-facing handlers of one group: heartbeat (join, rejoin, static replacement, steady state) and leave.
 * Each handler validates first (no state change on a refused request, except the fence of an invalid ownership
 * report), then emits its decisions through {@link GroupChanges}.
 */
final class MemberLifecycle {

    private MemberLifecycle() {
    }

    static HeartbeatResponse heartbeat(GroupChanges c, HeartbeatRequest req) {
        if (req.isJoin()) {
            return join(c, req);
        }
        Group group = c.group();
        Member member = knownMember(group, req.memberId());
        if (member.state() == MemberState.LEFT_STATIC) {
            throw new FencedMemberEpochException("static member '" + member.memberId() + "' left; rejoin with epoch 0");
        }
        EpochMatch match = EpochValidator.throwIfMemberEpochIsInvalid(member, req.memberEpoch());
        EpochValidator.throwIfAssignmentEpochIsInvalid(member.memberId(), req.assignmentEpoch(),
                group.assignmentEpoch());
        Set<ShardId> owned = ownedShards(group, member, req);
        if (match == EpochMatch.CURRENT) {
            // A delta request claims nothing new: what it owns was checked when it was last listed.
            Optional<String> violation = EpochValidator.ownershipViolation(member, req.owned(), req.revoking());
            if (violation.isPresent()) {
                c.fence(member, violation.get());
                throw new InvalidOwnershipException(violation.get() + "; stop every shard and rejoin with epoch 0");
            }
        }
        c.renewLease(member.memberId());
        group.reportedAssignmentEpoch(member.memberId(), req.assignmentEpoch());
        if (match == EpochMatch.PREVIOUS) {
            return c.answer(member);
        }
        maybeUpdateMetadata(c, member, req);
        c.maybeRecompute();
        Member reconciled = c.reconcile(group.member(member.memberId()), owned, req.revoking());
        Optional<String> overdue = c.maybeFenceOverdueRevocation(reconciled);
        if (overdue.isPresent()) {
            throw new FencedMemberEpochException(overdue.get() + ": stop every shard and rejoin with epoch 0");
        }
        return delta(req, c.answer(reconciled));
    }

    /**
     * The shards the member owns, as its request tells: the list it sent, or for a delta request
     * ({@code ownedUnchanged}) the assignment of the answer it last applied, read before this heartbeat changes
     * anything. Under the member's current epoch (no grant since) that answer assigned no shard the member does not
     * hold now, and when its assignment epoch is at least the one at which the member's last revoking shard was taken
     * from it, it assigned none of its revoking shards either: those the member does not report draining are stopped,
     * as with a full list (the member's assigned set stands for the list). Null when the coordinator cannot tell (an
     * older answer, which may still assign a shard now revoking): then the absence of a shard releases nothing
     * (docs/protocol.md, section 2, "Deltas").
     */
    private static Set<ShardId> ownedShards(Group group, Member member, HeartbeatRequest req) {
        if (!req.ownedUnchanged()) {
            return req.owned();
        }
        boolean known = req.memberEpoch() == member.memberEpoch()
                && req.assignmentEpoch() >= group.revokingSince(member.memberId());
        return known ? member.assigned().keySet() : null;
    }

    /**
     * KIP-848's delta answer: to a delta request, the answer leaves out the assignment when its epochs are the ones
     * the request carried, so the member already applied exactly this assignment; a request that listed its owned
     * shards (a change, or a resync after a failure) always gets the whole assignment.
     */
    private static HeartbeatResponse delta(HeartbeatRequest req, HeartbeatResponse answer) {
        if (req.ownedUnchanged() && answer.memberEpoch() == req.memberEpoch()
                && answer.assignmentEpoch() == req.assignmentEpoch()) {
            return answer.withoutAssignment();
        }
        return answer;
    }

    private static HeartbeatResponse join(GroupChanges c, HeartbeatRequest req) {
        if (!req.owned().isEmpty() || !req.revoking().isEmpty()) {
            throw new InvalidRequestException("member '" + req.memberId() + "' joins with epoch 0 but reports owned "
                    + req.owned() + " and revoking " + req.revoking() + ": a joining member must own nothing");
        }
        Group group = c.group();
        Member existing = group.member(req.memberId());
        if (req.instanceId().isPresent()) {
            String holder = group.memberIdByInstance(req.instanceId().get());
            if (holder != null && !holder.equals(req.memberId())) {
                Member previous = group.member(holder);
                if (previous.state() != MemberState.LEFT_STATIC) {
                    throw new UnreleasedInstanceIdException("instance id '" + req.instanceId().get()
                            + "' is held by live member '" + holder + "' (epoch " + previous.memberEpoch()
                            + "); retry after it leaves or its session times out");
                }
                replaceStatic(c, previous, req);
                return settle(c, req.memberId());
            }
        }
        if (existing == null) {
            int epoch = c.bumpGroupEpoch(ChangeReason.MEMBER_JOINED, null);
            Member fresh = identity(new Member.Builder(req.memberId()), req).resetMemberEpoch(epoch).build();
            c.emit(Records.newMemberMetadataRecord(group.groupId(), fresh));
            c.emit(Records.newMemberStateRecord(group.groupId(), fresh));
            c.audit(AuditType.MEMBER_JOINED, fresh.memberId(), null, epoch, "join");
        } else {
            int epoch = c.bumpGroupEpoch(ChangeReason.MEMBER_REJOINED, existing);
            SortedSet<ShardId> held = existing.held();
            Member rejoined = identity(new Member.Builder(existing), req)
                    .resetMemberEpoch(epoch)
                    .setAssigned(Map.of())
                    .setRevoking(held)
                    .setState(held.isEmpty() ? MemberState.STABLE : MemberState.UNREVOKED_SHARDS)
                    .build();
            if (!sameIdentity(existing, rejoined)) {
                c.emit(Records.newMemberMetadataRecord(group.groupId(), rejoined));
            }
            c.emit(Records.newMemberStateRecord(group.groupId(), rejoined));
            c.audit(AuditType.MEMBER_REJOINED, rejoined.memberId(), null, epoch,
                    "rejoin with epoch 0; earlier incarnation fenced, holding " + held.size() + " shards until "
                            + "it proves it stopped them");
        }
        return settle(c, req.memberId());
    }

    private static HeartbeatResponse settle(GroupChanges c, String memberId) {
        c.renewLease(memberId);
        c.maybeRecompute();
        return c.answer(c.reconcile(c.group().member(memberId), null, null));
    }

    /** KIP-345: a static member back under a new member id takes over its predecessor's reserved target. */
    private static void replaceStatic(GroupChanges c, Member previous, HeartbeatRequest req) {
        Group group = c.group();
        SortedSet<ShardId> reserved = group.target(previous.memberId());
        c.releaseAll(previous, ChangeReason.MEMBER_REPLACED);
        c.emit(Records.newMemberTombstone(group.groupId(), previous, ChangeReason.MEMBER_REPLACED));
        int epoch = c.bumpGroupEpoch(ChangeReason.MEMBER_REPLACED, previous);
        Member fresh = identity(new Member.Builder(req.memberId()), req).resetMemberEpoch(epoch).build();
        c.emit(Records.newMemberMetadataRecord(group.groupId(), fresh));
        c.emit(Records.newMemberStateRecord(group.groupId(), fresh));
        c.audit(AuditType.MEMBER_REPLACED, fresh.memberId(), null, epoch, "static instance '"
                + req.instanceId().orElse("") + "' was member '" + previous.memberId() + "'");
        if (fresh.subscriptions().equals(previous.subscriptions())) {
            c.emit(Records.newTargetAssignmentRecord(group.groupId(), fresh.memberId(), reserved));
            c.emit(Records.newAssignmentEpochRecord(group.groupId(), group.assignmentEpoch() + 1, group.groupEpoch()));
        }
    }

    static void leave(GroupChanges c, LeaveRequest req) {
        Group group = c.group();
        Member member = knownMember(group, req.memberId());
        if (member.state() == MemberState.LEFT_STATIC) {
            return;
        }
        EpochValidator.throwIfMemberEpochIsInvalid(member, req.memberEpoch());
        if (member.instanceId().isPresent()) {
            c.releaseAll(member, ChangeReason.MEMBER_LEFT_STATIC);
            Member left = new Member.Builder(member).setAssigned(Map.of()).setRevoking(List.of())
                    .setState(MemberState.LEFT_STATIC).build();
            c.emit(Records.newMemberStateRecord(group.groupId(), left));
            c.audit(AuditType.MEMBER_LEFT_STATIC, member.memberId(), null, member.memberEpoch(),
                    "target reserved for one session timeout");
            c.renewLease(member.memberId());
        } else {
            c.removeMember(member, ChangeReason.MEMBER_LEFT, AuditType.MEMBER_LEFT);
        }
        c.maybeRecompute();
    }

    private static Member knownMember(Group group, String memberId) {
        Member member = group.member(memberId);
        if (member == null) {
            throw new UnknownMemberIdException("group '" + group.groupId() + "' has no member '" + memberId
                    + "': drop every shard and rejoin with the same id and epoch 0");
        }
        return member;
    }

    private static void maybeUpdateMetadata(GroupChanges c, Member member, HeartbeatRequest req) {
        if (member.instanceId().equals(req.instanceId()) && member.rack().equals(req.rack())
                && member.subscriptions().equals(req.subscriptions()) && member.weight() == req.weight()) {
            return;
        }
        Member updated = identity(new Member.Builder(member), req).build();
        if (!sameIdentity(member, updated)) {
            c.emit(Records.newMemberMetadataRecord(c.group().groupId(), updated));
            c.bumpGroupEpoch(ChangeReason.SUBSCRIPTION_CHANGED, null);
        }
    }

    private static Member.Builder identity(Member.Builder b, HeartbeatRequest req) {
        return b.setInstanceId(req.instanceId()).setRack(req.rack()).setSubscriptions(req.subscriptions())
                .setWeight(req.weight());
    }

    private static boolean sameIdentity(Member a, Member b) {
        return a.instanceId().equals(b.instanceId()) && a.rack().equals(b.rack())
                && a.subscriptions().equals(b.subscriptions()) && a.weight() == b.weight();
    }
}
