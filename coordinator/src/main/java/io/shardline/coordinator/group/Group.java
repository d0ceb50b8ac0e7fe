package io.shardline.coordinator.group;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.record.AssignmentEpochRecord;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.record.GroupConfigRecord;
import io.shardline.coordinator.record.GroupEpochRecord;
import io.shardline.coordinator.record.MemberMetadataRecord;
import io.shardline.coordinator.record.MemberRemovedRecord;
import io.shardline.coordinator.record.MemberStateRecord;
import io.shardline.coordinator.record.Records;
import io.shardline.coordinator.record.ShardOwnerRecord;
import io.shardline.coordinator.record.ShardReleasedRecord;
import io.shardline.coordinator.record.TargetAssignmentRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The state of one group on the coordinator: configuration, epochs, members, target assignment and the shard
 * owner table. Persisted state changes only through {@link #replay(CoordinatorRecord)}; leases and the answer
 * cache are soft state (timers), rebuilt after a leader change. Not thread-safe: the host calls it from one
 * thread (one Vert.x context).
 */
public final class Group {

    private GroupConfig config;
    private int groupEpoch;
    private int assignmentEpoch;
    private int targetGroupEpoch;
    private final TreeMap<String, Member> members = new TreeMap<>();
    private final HashMap<String, SortedSet<ShardId>> target = new HashMap<>();
    /** How many members' targets hold a shard (the inverse of {@link #target}, kept by {@link #setTarget}). */
    private final HashMap<ShardId, Integer> targetCounts = new HashMap<>();
    private final HashMap<ShardId, ShardOwner> owners = new HashMap<>();
    private final HashMap<String, String> instanceIndex = new HashMap<>();
    private final HashMap<String, Long> leaseDeadlines = new HashMap<>();
    private final HashMap<String, RevocationTimer> revocationTimers = new HashMap<>();
    private final HashMap<String, Integer> reportedAssignmentEpochs = new HashMap<>();
    private final HashMap<String, HeartbeatResponse> answerCache = new HashMap<>();
    /**
     * The assignment epoch at which the last shard entered each member's revoking set (absent: nothing revoking).
     * Derived by replay, so a new leader derives it too (from a compacted log: the epoch of the snapshot, later, so
     * it only waits longer).
     */
    private final HashMap<String, Integer> revokingSince = new HashMap<>();
    /** Members found settled (stable, assigned = target), with the target object they were checked against. */
    private final HashMap<String, Settled> settled = new HashMap<>();
    /** Why the last assignor run failed, or null when it succeeded (read model only, not persisted). */
    private AssignorFailure assignorFailure;

    /** A group created by its configuration record. */
    public Group(GroupConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** Applies one record of this group: the only mutator of persisted state. */
    public void replay(CoordinatorRecord record) {
        if (!record.groupId().equals(config.groupId())) {
            throw new IllegalArgumentException("record of group '" + record.groupId() + "' replayed on group '"
                    + config.groupId() + "'");
        }
        if (record instanceof GroupConfigRecord r) {
            config = r.config();
            answerCache.clear();
        } else if (record instanceof GroupEpochRecord r) {
            throwIfBackwards("group epoch", groupEpoch, r.groupEpoch());
            groupEpoch = r.groupEpoch();
        } else if (record instanceof MemberMetadataRecord r) {
            replayMetadata(r);
        } else if (record instanceof MemberRemovedRecord r) {
            replayRemoval(r);
        } else if (record instanceof TargetAssignmentRecord r) {
            setTarget(r.memberId(), r.shards().isEmpty() ? null : r.shards());
            answerCache.remove(r.memberId());
        } else if (record instanceof AssignmentEpochRecord r) {
            throwIfBackwards("assignment epoch", assignmentEpoch, r.assignmentEpoch());
            if (r.assignmentEpoch() != assignmentEpoch) {
                answerCache.clear();
            }
            assignmentEpoch = r.assignmentEpoch();
            targetGroupEpoch = r.groupEpoch();
        } else if (record instanceof MemberStateRecord r) {
            replayMemberState(r);
        } else if (record instanceof ShardOwnerRecord r) {
            throwIfBackwards("owner epoch of " + r.shard(), owner(r.shard()).ownerEpoch(), r.ownerEpoch());
            owners.put(r.shard(), new ShardOwner(r.memberId(), r.ownerEpoch()));
        } else if (record instanceof ShardReleasedRecord r) {
            owners.put(r.shard(), new ShardOwner(null, Math.max(r.ownerEpoch(), owner(r.shard()).ownerEpoch())));
        } else {
            throw new IllegalArgumentException("unknown record type " + record.getClass().getName());
        }
    }

    private void replayMetadata(MemberMetadataRecord r) {
        Member existing = members.get(r.memberId());
        Member.Builder b = existing == null ? new Member.Builder(r.memberId()) : new Member.Builder(existing);
        existing = b.setInstanceId(r.instanceId()).setRack(r.rack()).setSubscriptions(r.subscriptions())
                .setWeight(r.weight()).build();
        members.put(r.memberId(), existing);
        instanceIndex.values().remove(r.memberId());
        r.instanceId().ifPresent(i -> instanceIndex.put(i, r.memberId()));
        answerCache.remove(r.memberId());
    }

    private void replayRemoval(MemberRemovedRecord r) {
        members.remove(r.memberId());
        setTarget(r.memberId(), null);
        instanceIndex.values().remove(r.memberId());
        leaseDeadlines.remove(r.memberId());
        revocationTimers.remove(r.memberId());
        reportedAssignmentEpochs.remove(r.memberId());
        answerCache.remove(r.memberId());
        settled.remove(r.memberId());
        revokingSince.remove(r.memberId());
    }

    private void replayMemberState(MemberStateRecord r) {
        Member existing = members.get(r.memberId());
        if (existing == null) {
            throw new IllegalStateException("group '" + config.groupId() + "': state record for unknown member '"
                    + r.memberId() + "'");
        }
        if (r.revoking().isEmpty()) {
            revokingSince.remove(r.memberId());
        } else if (!existing.revoking().containsAll(r.revoking())) {
            revokingSince.put(r.memberId(), assignmentEpoch);
        }
        members.put(r.memberId(), new Member.Builder(existing)
                .setEpochs(r.memberEpoch(), r.previousMemberEpoch())
                .setState(r.state())
                .setAssigned(r.assigned())
                .setRevoking(r.revoking())
                .build());
        answerCache.remove(r.memberId());
    }

    private void throwIfBackwards(String what, int current, int next) {
        if (next < current) {
            throw new IllegalStateException("group '" + config.groupId() + "': " + what + " would go backwards, "
                    + current + " -> " + next);
        }
    }

    /** The records that rebuild this group's persisted state, in replay order (for store compaction). */
    public List<CoordinatorRecord> snapshot() {
        String id = config.groupId();
        List<CoordinatorRecord> out = new ArrayList<>();
        out.add(Records.newGroupConfigRecord(config));
        out.add(Records.newGroupEpochRecord(id, groupEpoch, ChangeReason.GROUP_CREATED));
        out.add(Records.newAssignmentEpochRecord(id, assignmentEpoch, targetGroupEpoch));
        for (Member m : members.values()) {
            out.add(Records.newMemberMetadataRecord(id, m));
            out.add(Records.newMemberStateRecord(id, m));
            out.add(Records.newTargetAssignmentRecord(id, m.memberId(), target(m.memberId())));
        }
        for (Map.Entry<ShardId, ShardOwner> e : new TreeMap<>(owners).entrySet()) {
            ShardOwner o = e.getValue();
            out.add(o.isFree()
                    ? Records.newShardReleasedRecord(id, e.getKey(), "", o.ownerEpoch(), ChangeReason.REVOKED)
                    : Records.newShardOwnerRecord(id, e.getKey(), o.memberId(), o.ownerEpoch()));
        }
        return out;
    }

    /** The group id. */
    public String groupId() {
        return config.groupId();
    }

    /** The configuration. */
    public GroupConfig config() {
        return config;
    }

    /** The group epoch. */
    public int groupEpoch() {
        return groupEpoch;
    }

    /** The assignment epoch. */
    public int assignmentEpoch() {
        return assignmentEpoch;
    }

    /** The group epoch the current target was computed for. */
    public int targetGroupEpoch() {
        return targetGroupEpoch;
    }

    /** The members by id (read-only view). */
    public NavigableMap<String, Member> members() {
        return Collections.unmodifiableNavigableMap(members);
    }

    /** The member with {@code memberId}, or null. */
    public Member member(String memberId) {
        return members.get(memberId);
    }

    /** The member id holding static {@code instanceId}, or null. */
    public String memberIdByInstance(String instanceId) {
        return instanceIndex.get(instanceId);
    }

    /** The target of {@code memberId}; empty when none. */
    public SortedSet<ShardId> target(String memberId) {
        SortedSet<ShardId> t = target.get(memberId);
        return t == null ? Collections.emptySortedSet() : t;
    }

    /** Whether some member's target holds {@code shard}: O(1), where scanning the targets is O(shards). */
    public boolean targeted(ShardId shard) {
        return targetCounts.containsKey(shard);
    }

    /** Replaces (or with null removes) the target of {@code memberId}, keeping {@link #targetCounts} in step. */
    private void setTarget(String memberId, SortedSet<ShardId> shards) {
        SortedSet<ShardId> old = shards == null ? target.remove(memberId) : target.put(memberId, shards);
        if (old != null) {
            old.forEach(s -> targetCounts.computeIfPresent(s, (k, n) -> n == 1 ? null : n - 1));
        }
        if (shards != null) {
            shards.forEach(s -> targetCounts.merge(s, 1, Integer::sum));
        }
    }

    /** The whole target, by member id (read-only view). */
    public Map<String, SortedSet<ShardId>> targets() {
        return Collections.unmodifiableMap(target);
    }

    /** The owner of {@code shard}; {@link ShardOwner#NEVER_OWNED} when it was never granted. */
    public ShardOwner owner(ShardId shard) {
        ShardOwner o = owners.get(shard);
        return o == null ? ShardOwner.NEVER_OWNED : o;
    }

    /** The owner table, sorted by shard (a copy). */
    public TreeMap<ShardId, ShardOwner> owners() {
        return new TreeMap<>(owners);
    }

    /** True when a member other than {@code memberId} still has shards to revoke (the eager barrier). */
    public boolean anyRevokingExcept(String memberId) {
        for (Member m : members.values()) {
            if (!m.revoking().isEmpty() && !m.memberId().equals(memberId)) {
                return true;
            }
        }
        return false;
    }

    /** The shards of {@code member}'s target it does not have yet, sorted. */
    public SortedSet<ShardId> pending(Member member) {
        TreeSet<ShardId> p = new TreeSet<>(target(member.memberId()));
        p.removeAll(member.assigned().keySet());
        return p;
    }

    /** The lease deadline of {@code memberId}, or null when none was set since this coordinator started. */
    public Long leaseDeadline(String memberId) {
        return leaseDeadlines.get(memberId);
    }

    /** Sets the lease deadline; leases only grow. */
    public void extendLease(String memberId, long deadlineMs) {
        leaseDeadlines.merge(memberId, deadlineMs, Math::max);
    }

    /**
     * Starts, keeps or stops the rebalance timer of {@code memberId} after its state changed (Kafka schedules its
     * rebalance timeout per member epoch the same way): a member with shards to revoke gets a deadline of
     * {@code nowMs} plus the rebalance timeout, kept while its epoch stays the same; a new epoch (fenced, rejoined)
     * starts a new timer; nothing left to revoke stops it. Soft state, like leases.
     */
    public void maybeStartRevocationTimer(String memberId, long nowMs) {
        Member m = members.get(memberId);
        if (m == null || m.revoking().isEmpty() || m.state() == MemberState.LEFT_STATIC) {
            revocationTimers.remove(memberId);
            return;
        }
        RevocationTimer timer = revocationTimers.get(memberId);
        if (timer == null || timer.memberEpoch() != m.memberEpoch()) {
            revocationTimers.put(memberId, new RevocationTimer(m.memberEpoch(), nowMs + config.rebalanceTimeoutMs()));
        }
    }

    /**
     * Stops the rebalance timer of a member that was just fenced, for its new epoch: it is refused until it rejoins
     * (a new epoch starts a new timer) or its lease passes, so fencing it again would change nothing.
     */
    public void parkRevocationTimer(String memberId) {
        Member m = members.get(memberId);
        if (m != null) {
            revocationTimers.put(memberId, new RevocationTimer(m.memberEpoch(), Long.MAX_VALUE));
        }
    }

    /** Restarts every member's rebalance timer at {@code nowMs} (a new leader: nobody is fenced for its wait). */
    public void restartRevocationTimers(long nowMs) {
        revocationTimers.clear();
        for (String memberId : members.keySet()) {
            maybeStartRevocationTimer(memberId, nowMs);
        }
    }

    /**
     * When the member's pending revocation runs out of time (coordinator clock), or -1 when it has nothing to
     * revoke, was fenced since (its timer is parked) or no timer was started since this coordinator started.
     */
    public long revocationDeadline(String memberId) {
        RevocationTimer timer = revocationTimers.get(memberId);
        return timer == null || timer.deadlineMs() == Long.MAX_VALUE ? -1 : timer.deadlineMs();
    }

    /** Remembers the assignment epoch the member last reported applied (read model only). */
    public void reportedAssignmentEpoch(String memberId, int epoch) {
        reportedAssignmentEpochs.put(memberId, epoch);
    }

    /** The assignment epoch the member last reported applied, or -1. */
    public int reportedAssignmentEpoch(String memberId) {
        return reportedAssignmentEpochs.getOrDefault(memberId, -1);
    }

    /** The cached success answer for {@code memberId}, or null (dropped on every change of the member). */
    public HeartbeatResponse cachedAnswer(String memberId) {
        return answerCache.get(memberId);
    }

    /** Caches the success answer for {@code memberId}. */
    public void cacheAnswer(String memberId, HeartbeatResponse answer) {
        answerCache.put(memberId, answer);
    }

    /**
     * The assignment epoch at which the last shard of {@code memberId}'s revoking set was taken from its assigned
     * set, or 0 when it revokes nothing: an answer of this assignment epoch or later told the member of every one of
     * them (docs/protocol.md, section 2, "Deltas").
     */
    public int revokingSince(String memberId) {
        return revokingSince.getOrDefault(memberId, 0);
    }

    /**
     * True when {@code member} is this group's member object that was found settled ({@link #maybeMarkSettled})
     * against the target the group holds for it now: nothing has changed for it since, so a steady heartbeat does
     * no work per shard. O(1): members and targets are immutable objects replaced on every change, compared by
     * identity.
     */
    public boolean settled(Member member) {
        Settled s = settled.get(member.memberId());
        return s != null && s.member() == member && members.get(member.memberId()) == member
                && s.target() == target.get(member.memberId());
    }

    /**
     * Remembers {@code member} as settled when it is {@code STABLE}: a reconciliation step found nothing to do for
     * it (nothing revoking, its assigned shards are its target). Soft state, like the answer cache.
     */
    public void maybeMarkSettled(Member member) {
        if (member.state() == MemberState.STABLE && members.get(member.memberId()) == member) {
            settled.put(member.memberId(), new Settled(member, target.get(member.memberId())));
        }
    }

    /**
     * Remembers that the assignor failed at {@code timeMs} for {@code groupEpoch} (the group stays on its
     * previous target), or with null that it succeeded. Soft state for the read model, like leases.
     */
    public void assignorFailure(AssignorFailure failure) {
        this.assignorFailure = failure;
    }

    /** The last assignor failure since the assignor last succeeded, or null. */
    public AssignorFailure assignorFailure() {
        return assignorFailure;
    }

    /** A member found settled against {@code target} (null: no target). */
    private record Settled(Member member, SortedSet<ShardId> target) {
    }

    /** A rebalance timer: started under {@code memberEpoch}, runs out at {@code deadlineMs}. */
    private record RevocationTimer(int memberEpoch, long deadlineMs) {
    }
}
