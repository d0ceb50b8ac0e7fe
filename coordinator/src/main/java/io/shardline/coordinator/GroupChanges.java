package io.shardline.coordinator;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.assignment.AssignmentPendingException;
import io.shardline.coordinator.assignment.AssignorException;
import io.shardline.coordinator.assignment.CurrentAssignmentBuilder;
import io.shardline.coordinator.assignment.EpochValidator;
import io.shardline.coordinator.assignment.Reconciliation;
import io.shardline.coordinator.assignment.TargetAssignmentBuilder;
import io.shardline.coordinator.assignment.TargetResult;
import io.shardline.coordinator.group.AssignorFailure;
import io.shardline.coordinator.group.Group;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.group.RebalanceProtocol;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.record.MemberStateRecord;
import io.shardline.coordinator.record.Records;
import io.shardline.coordinator.record.ShardReleasedRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The decisions of one coordinator call on one group: every change is emitted as a record and replayed at once
 * (so later steps of the same call see it), and audited. Group epochs move only in {@link #bumpGroupEpoch}.
 */
final class GroupChanges {

    private final Group group;
    private final long nowMs;
    private final Consumer<CoordinatorRecord> replayer;
    private final Function<String, Assignor> assignors;
    private final CoordinatorMetrics metrics;
    private final List<CoordinatorRecord> records = new ArrayList<>();
    private final List<AuditEvent> events = new ArrayList<>();
    private final Set<ShardId> released = new TreeSet<>();
    private boolean followedUp;

    GroupChanges(Group group, long nowMs, Consumer<CoordinatorRecord> replayer, Function<String, Assignor> assignors,
            CoordinatorMetrics metrics) {
        this.group = group;
        this.nowMs = nowMs;
        this.replayer = replayer;
        this.assignors = assignors;
        this.metrics = metrics;
    }

    Group group() {
        return group;
    }

    long nowMs() {
        return nowMs;
    }

    List<CoordinatorRecord> records() {
        return records;
    }

    List<AuditEvent> events() {
        return events;
    }

    <T> CoordinatorResult<T> result(T response) {
        return new CoordinatorResult<>(records, response, events);
    }

    void emit(CoordinatorRecord record) {
        if (record instanceof ShardReleasedRecord r) {
            released.add(r.shard());
        }
        records.add(record);
        replayer.accept(record);
        if (record instanceof MemberStateRecord r) {
            group.maybeStartRevocationTimer(r.memberId(), nowMs);
        }
    }

    void audit(AuditType type, String memberId, ShardId shard, int epoch, String reason) {
        events.add(new AuditEvent(nowMs, group.groupId(), type, memberId, Optional.ofNullable(shard),
                group.groupEpoch(), group.assignmentEpoch(), epoch, reason));
    }

    /** Moves the group epoch past the group's and {@code floor}'s epochs; returns the new group epoch. */
    int bumpGroupEpoch(ChangeReason reason, Member floor) {
        int epoch = EpochValidator.nextLifecycleEpoch(group.groupEpoch(), floor);
        emit(Records.newGroupEpochRecord(group.groupId(), epoch, reason));
        audit(AuditType.GROUP_EPOCH_BUMPED, floor == null ? "" : floor.memberId(), null, -1, reason.name());
        return epoch;
    }

    /** Releases every shard {@code member} holds. Only when the member has surely stopped them. */
    void releaseAll(Member member, ChangeReason reason) {
        for (ShardId s : member.held()) {
            int ownerEpoch = group.owner(s).ownerEpoch();
            emit(Records.newShardReleasedRecord(group.groupId(), s, member.memberId(), ownerEpoch, reason));
            audit(AuditType.SHARD_RELEASED, member.memberId(), s, ownerEpoch, reason.name());
            metrics.shardReleased(group.groupId(), s, reason);
        }
    }

    /** Removes a member that left or expired: releases its shards, writes its tombstone, bumps the group epoch. */
    void removeMember(Member member, ChangeReason reason, AuditType type) {
        releaseAll(member, reason);
        emit(Records.newMemberTombstone(group.groupId(), member, reason));
        audit(type, member.memberId(), null, member.memberEpoch(), reason.name());
        bumpGroupEpoch(reason, member);
    }

    /**
     * Fences {@code member}: a new epoch it does not know (so its next request is fenced) and everything it held
     * moves to revoking, released only when the member proves under a new epoch that it stopped, or expires.
     */
    void fence(Member member, String why) {
        fence(member, why, AuditType.MEMBER_FENCED);
    }

    private void fence(Member member, String why, AuditType type) {
        SortedSet<ShardId> held = member.held();
        Member fenced = new Member.Builder(member)
                .resetMemberEpoch(member.memberEpoch() + 1)
                .setAssigned(Map.of())
                .setRevoking(held)
                .setState(held.isEmpty() ? MemberState.UNRELEASED_SHARDS : MemberState.UNREVOKED_SHARDS)
                .build();
        emit(Records.newMemberStateRecord(group.groupId(), fenced));
        group.parkRevocationTimer(member.memberId());
        audit(type, member.memberId(), null, fenced.memberEpoch(), why);
        metrics.memberFenced(group.groupId(), member.memberId());
    }

    /**
     * Kafka's rebalance timeout: when {@code member} still has shards to revoke at its revocation deadline (its
     * drain hangs, though it may keep heartbeating), it is fenced like an invalid report (epoch reset, everything
     * it held waits in revoking until it proves under a new epoch that it stopped, or until its lease passes), so
     * its heartbeats and leave are refused and it must drop everything and rejoin. The shard then moves on
     * without ever having two live owners.
     *
     * @return the reason when the member was fenced, else empty
     */
    Optional<String> maybeFenceOverdueRevocation(Member member) {
        long deadline = group.revocationDeadline(member.memberId());
        if (deadline < 0 || nowMs < deadline || member.revoking().isEmpty()
                || member.state() == MemberState.LEFT_STATIC) {
            return Optional.empty();
        }
        String why = "member '" + member.memberId() + "' (epoch " + member.memberEpoch() + ") did not report "
                + member.revoking() + " revoked within the rebalance timeout of " + group.config().rebalanceTimeoutMs()
                + " ms (deadline " + deadline + ", now " + nowMs + ")";
        fence(member, why, AuditType.MEMBER_REBALANCE_TIMEOUT);
        metrics.rebalanceTimedOut(group.groupId(), member.memberId());
        return Optional.of(why);
    }

    /**
     * Recomputes the target if the group epoch moved since it was computed, and starts the revocations.
     *
     * <p>An assignor may leave a shard out of every target while it is still owned ({@code cooperative-sticky}
     * withholds a moving shard: "it is assigned in the next round"). That next round is started here, at most
     * once per call: when this call released such a shard, or when the new target withheld a shard that is
     * already free (its claim came from an old target, not from a holder). Without it the shard would wait for
     * an unrelated membership change.
     */
    void maybeRecompute() {
        if (group.targetGroupEpoch() >= group.groupEpoch() && !released.isEmpty() && withheldFreeShard(released)) {
            followUpRound();
        }
        if (group.targetGroupEpoch() >= group.groupEpoch()) {
            return;
        }
        if (!recompute()) {
            return;
        }
        if (!followedUp && withheldFreeShard(managedShards())) {
            followUpRound();
            recompute();
        }
    }

    private void followUpRound() {
        if (followedUp) {
            return;
        }
        followedUp = true;
        bumpGroupEpoch(ChangeReason.REVOKED, null);
    }

    /** Computes the target; false when the assignor's answer is not ready yet (nothing changed then). */
    private boolean recompute() {
        TargetResult target;
        try {
            Assignor assignor = assignor();
            if (assignor == null) {
                throw new AssignorException("group '" + group.groupId() + "': no assignor named '"
                        + group.config().assignor() + "'", null);
            }
            target = new TargetAssignmentBuilder(group.config(), assignor)
                    .withMembers(group.members().values())
                    .withTarget(group.targets())
                    .withAssignmentEpoch(group.assignmentEpoch())
                    .withGroupEpoch(group.groupEpoch())
                    .build();
            metrics.assignorRan(group.groupId());
        } catch (AssignmentPendingException e) {
            return false;
        } catch (AssignorException e) {
            metrics.assignorRan(group.groupId());
            emit(Records.newAssignmentEpochRecord(group.groupId(), group.assignmentEpoch(), group.groupEpoch()));
            audit(AuditType.ASSIGNOR_FAILED, "", null, -1, e.getMessage());
            group.assignorFailure(new AssignorFailure(nowMs, group.groupEpoch(), e.getMessage()));
            return true;
        }
        group.assignorFailure(null);
        target.records().forEach(this::emit);
        if (!target.changed()) {
            return true;
        }
        audit(AuditType.ASSIGNMENT_EPOCH_BUMPED, "", null, -1, "target changed for group epoch "
                + group.groupEpoch());
        metrics.rebalanced(group.groupId(), target.assignmentEpoch());
        if (group.config().protocol() == RebalanceProtocol.EAGER) {
            for (Member m : new ArrayList<>(group.members().values())) {
                if (!m.assigned().isEmpty()) {
                    startRevocation(m, new TreeSet<>(m.assigned().keySet()));
                }
            }
            return true;
        }
        // Cooperative: a member whose target did not change has nothing new to give back.
        for (String memberId : target.changedMembers()) {
            Member m = group.member(memberId);
            TreeSet<ShardId> removed = new TreeSet<>();
            for (ShardId s : m.assigned().keySet()) {
                if (!group.target(memberId).contains(s)) {
                    removed.add(s);
                }
            }
            if (!removed.isEmpty()) {
                startRevocation(m, removed);
            }
        }
        return true;
    }

    private Assignor assignor() {
        try {
            return assignors.apply(group.config().assignor());
        } catch (AssignmentPendingException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new AssignorException("group '" + group.groupId() + "': cannot load assignor '"
                    + group.config().assignor() + "': " + e.getMessage(), e);
        }
    }

    /** Step 1 of revoke-before-assign: take {@code shards} out of the member's assigned set. */
    private void startRevocation(Member m, SortedSet<ShardId> shards) {
        TreeMap<ShardId, Integer> assigned = new TreeMap<>(m.assigned());
        TreeSet<ShardId> revoking = new TreeSet<>(m.revoking());
        for (ShardId s : shards) {
            assigned.remove(s);
            revoking.add(s);
            audit(AuditType.SHARD_REVOKE_REQUESTED, m.memberId(), s, group.owner(s).ownerEpoch(),
                    "target epoch " + group.assignmentEpoch());
        }
        emit(Records.newMemberStateRecord(group.groupId(), new Member.Builder(m)
                .setAssigned(assigned).setRevoking(revoking).setState(MemberState.UNREVOKED_SHARDS).build()));
    }

    /**
     * One reconciliation step for {@code member}, with its report only when sent under its current epoch.
     *
     * @param owned the shards the member owns, or null when its report does not tell (docs/protocol.md section 2)
     * @param revoking the member's revocation reports, or null for no report at all (a join)
     */
    Member reconcile(Member member, Set<ShardId> owned, List<RevokeReport> revoking) {
        if (group.settled(member)) {
            return member; // a steady heartbeat: no work per shard (docs/benchmarks.md, "Cost curve")
        }
        boolean grantsAllowed = group.config().protocol() != RebalanceProtocol.EAGER
                || !group.anyRevokingExcept(member.memberId());
        CurrentAssignmentBuilder builder = new CurrentAssignmentBuilder(member)
                .withTarget(group.target(member.memberId()))
                .withOwners(group::owner)
                .withGrantsAllowed(grantsAllowed);
        if (revoking != null) {
            builder.withOwnershipReport(owned, revoking);
        }
        Reconciliation r = builder.build();
        if (r.member() == member) {
            group.maybeMarkSettled(member);
            return member;
        }
        String id = member.memberId();
        r.released().forEach((s, epoch) -> {
            emit(Records.newShardReleasedRecord(group.groupId(), s, id, epoch, ChangeReason.REVOKED));
            audit(AuditType.SHARD_RELEASED, id, s, epoch, ChangeReason.REVOKED.name());
            metrics.shardReleased(group.groupId(), s, ChangeReason.REVOKED);
        });
        r.newlyRevoking().forEach(s -> audit(AuditType.SHARD_REVOKE_REQUESTED, id, s, group.owner(s).ownerEpoch(),
                "not in target"));
        emit(Records.newMemberStateRecord(group.groupId(), r.member()));
        r.granted().forEach((s, epoch) -> {
            emit(Records.newShardOwnerRecord(group.groupId(), s, id, epoch));
            audit(AuditType.SHARD_GRANTED, id, s, epoch, ChangeReason.TARGET.name());
            metrics.shardGranted(group.groupId(), s, epoch);
        });
        if (!r.released().isEmpty()) {
            maybeRecompute();
        }
        return group.member(id);
    }

    private List<ShardId> managedShards() {
        List<ShardId> all = new ArrayList<>();
        group.config().streams().forEach((stream, count) -> {
            for (int i = 0; i < count; i++) {
                all.add(new ShardId(stream, i));
            }
        });
        return all;
    }

    /**
     * True when one of {@code shards} is free, read by a member, and in no member's target. Each shard is looked up in
     * the group's index of targeted shards ({@link Group#targeted}): a heartbeat that reports released shards costs
     * O(released shards), not O(shards), so a large group's rebalance costs the coordinator linearly in its heartbeats
     * (docs/benchmarks.md, "Cost curve").
     */
    private boolean withheldFreeShard(Iterable<ShardId> shards) {
        HashSet<String> read = new HashSet<>();
        for (Member m : group.members().values()) {
            read.addAll(m.subscriptions());
        }
        for (ShardId s : shards) {
            if (s.index() < group.config().shardCount(s.stream()) && read.contains(s.stream())
                    && !group.targeted(s) && group.owner(s).isFree()) {
                return true;
            }
        }
        return false;
    }

    /** The success answer for {@code member} (cached until the member or the group changes). */
    HeartbeatResponse answer(Member member) {
        HeartbeatResponse cached = group.cachedAnswer(member.memberId());
        if (cached != null) {
            return cached;
        }
        HeartbeatResponse answer = new HeartbeatResponse(ErrorCode.NONE, "", member.memberId(),
                member.memberEpoch(), group.assignmentEpoch(), member.assigned(), group.pending(member),
                group.config().heartbeatIntervalMs(), group.config().sessionTimeoutMs());
        group.cacheAnswer(member.memberId(), answer);
        return answer;
    }

    /** Renews the member's lease: it may not be expired before now + session timeout. */
    void renewLease(String memberId) {
        group.extendLease(memberId, nowMs + group.config().sessionTimeoutMs());
    }
}
