package io.shardline.coordinator;

import io.shardline.api.assignor.Assignor;
import io.shardline.coordinator.group.Group;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.GroupConfigDiff;
import io.shardline.coordinator.group.GroupView;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.protocol.CoordinatorException;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.GroupConfigRefusedException;
import io.shardline.coordinator.protocol.GroupNotFoundException;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.LeaveRequest;
import io.shardline.coordinator.protocol.LeaveResponse;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.record.GroupConfigRecord;
import io.shardline.coordinator.record.GroupDeletedRecord;
import io.shardline.coordinator.record.Records;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The group coordinator: a pure, deterministic state machine over the groups it hosts. Time is an argument
 * ({@code nowMs}, the host's monotonic clock); it does no I/O and starts no thread. Not thread-safe: the host
 * calls it from one thread.
 *
 * <p>Every call returns a {@link CoordinatorResult}: the records it decided (already replayed here), the answer
 * and audit events. The host persists the records with a compare-and-set under its leader epoch before it
 * answers (see {@link CoordinatorResult}). {@link #replay} is the only mutator of persisted state; a new leader
 * builds a fresh coordinator, replays the store, and calls {@link #activate} so that nobody is expired before
 * the leases the previous leader granted may have run out.
 */
public final class GroupCoordinator {

    private final Function<String, Assignor> assignors;
    private final CoordinatorMetrics metrics;
    private final TreeMap<String, Group> groups = new TreeMap<>();

    /**
     * A coordinator without groups.
     *
     * @param assignors assignor by name (e.g. {@code AssignorRegistry::builtIn}); returns null for unknown names
     * @param metrics the metrics port
     */
    public GroupCoordinator(Function<String, Assignor> assignors, CoordinatorMetrics metrics) {
        this.assignors = Objects.requireNonNull(assignors, "assignors");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /** Applies one persisted record: the only mutator of persisted state. */
    public void replay(CoordinatorRecord record) {
        if (record instanceof GroupDeletedRecord) {
            groups.remove(record.groupId());
            return;
        }
        Group group = groups.get(record.groupId());
        if (group == null) {
            if (!(record instanceof GroupConfigRecord config)) {
                throw new IllegalStateException("record " + record.getClass().getSimpleName()
                        + " for group '" + record.groupId() + "' before the group's configuration record");
            }
            group = new Group(config.config());
            groups.put(record.groupId(), group);
        }
        group.replay(record);
    }

    /**
     * Starts serving after the store was replayed: every known member gets a lease until {@code nowMs} plus what
     * may remain of a lease the previous leader granted ({@link #inheritedLeaseMs}), so a leader change expires
     * nobody who is still heartbeating, and every pending revocation gets a full rebalance timeout from
     * {@code nowMs}.
     *
     * @param nowMs the new leader's clock
     * @param quietMs how long before {@code nowMs} the previous leader's last answer was confirmed in the store
     *     (its last accepted write), as measured by the store's clock; 0 when unknown
     */
    public void activate(long nowMs, long quietMs) {
        for (Group g : groups.values()) {
            long lease = inheritedLeaseMs(g.config().sessionTimeoutMs(), quietMs);
            for (String memberId : g.members().keySet()) {
                g.extendLease(memberId, nowMs + lease);
            }
            g.restartRevocationTimers(nowMs);
        }
    }

    /**
     * The longest a lease granted by the previous leader can still run when the new leader starts. Every answer
     * renews a lease counted from the member's <em>send</em> time and is given only after a write issued after
     * its decision was accepted by the store, so no member holds a lease ending later than the last accepted
     * write plus the session timeout, less its self-fence margin. Of that, {@code quietMs} (store clock) has
     * passed already. The new leader expires members at the last accepted write plus the session timeout, as a
     * leader that never changed expires them at the last heartbeat it received plus the session timeout: the
     * members' self-fence margin covers the clocks' rate differences in both cases (docs/protocol.md section 7).
     * With {@code quietMs} unknown (0) this is a whole session timeout: the rule of a leader that knows nothing
     * about its predecessor.
     */
    public static long inheritedLeaseMs(long sessionTimeoutMs, long quietMs) {
        if (quietMs <= 0) {
            return sessionTimeoutMs;
        }
        return Math.max(0, sessionTimeoutMs - quietMs);
    }

    /**
     * Creates a group or changes its configuration. A change bumps the group epoch with {@code reason} (e.g.
     * {@code SHARD_SET_CHANGED} for a shard-count migration, {@code RESHARD_ROLLBACK} for its rollback) and is
     * audited as {@code GROUP_CONFIGURED} with each changed setting. The configuration of the highest revision
     * wins: the same settings under a higher revision only record the revision. Unversioned configurations
     * (revision 0 on both sides: tests, embedded use) replace each other.
     *
     * @throws GroupConfigRefusedException (nothing emitted, the group keeps its configuration) when {@code config}
     *     has other settings than the group's and an older revision, or the same (non-zero) revision, or when,
     *     with reason {@code CONFIG_CHANGED} (a listener's definition), it changes the shard count of a stream
     *     the group manages: only a resharding changes that
     */
    public CoordinatorResult<Void> configureGroup(long nowMs, GroupConfig config, ChangeReason reason) {
        Objects.requireNonNull(config, "config");
        Group existing = groups.get(config.groupId());
        if (existing != null && existing.config().sameSettings(config)) {
            if (config.revision() <= existing.config().revision()) {
                return new CoordinatorResult<>(List.of(), null);
            }
            GroupChanges c = changes(existing, nowMs);
            c.emit(Records.newGroupConfigRecord(config));
            return c.result(null);
        }
        if (existing != null) {
            throwIfRefused(existing.config(), config, reason);
        }
        return apply(existing, config, reason, nowMs);
    }

    /**
     * Changes the shard count of {@code stream} in group {@code groupId}'s managed shard set, keeping every other
     * setting and the configuration's revision (a resharding is not a new definition of the listener): a new group
     * epoch with {@code reason} ({@code SHARD_SET_CHANGED}, or {@code RESHARD_ROLLBACK} for a rollback's change),
     * audited as {@code GROUP_CONFIGURED}, and a new target assignment over the new shard set. Nothing is emitted
     * when the group does not exist, does not manage {@code stream}, or manages it with {@code shards} already.
     *
     * @return whether the group's shard set changed
     */
    public CoordinatorResult<Boolean> reshardGroup(long nowMs, String groupId, String stream, int shards,
                                                   ChangeReason reason) {
        if (reason != ChangeReason.SHARD_SET_CHANGED && reason != ChangeReason.RESHARD_ROLLBACK) {
            throw new IllegalArgumentException("a resharding changes a group with SHARD_SET_CHANGED or "
                    + "RESHARD_ROLLBACK, not " + reason);
        }
        Group existing = groups.get(groupId);
        Integer current = existing == null ? null : existing.config().streams().get(stream);
        if (current == null || current == shards) {
            return new CoordinatorResult<>(List.of(), false);
        }
        java.util.Map<String, Integer> streams = new java.util.TreeMap<>(existing.config().streams());
        streams.put(stream, shards);
        CoordinatorResult<Void> done = apply(existing, existing.config().withStreams(streams), reason, nowMs);
        return new CoordinatorResult<>(done.records(), true, done.events());
    }

    private CoordinatorResult<Void> apply(Group existing, GroupConfig config, ChangeReason reason, long nowMs) {
        if (existing == null) {
            replay(Records.newGroupConfigRecord(config));
        }
        GroupChanges c = changes(groups.get(config.groupId()), nowMs);
        if (existing == null) {
            c.records().add(Records.newGroupConfigRecord(config));
            c.bumpGroupEpoch(ChangeReason.GROUP_CREATED, null);
        } else {
            GroupConfigDiff diff = GroupConfigDiff.between(existing.config(), config);
            c.emit(Records.newGroupConfigRecord(config));
            c.audit(AuditType.GROUP_CONFIGURED, "", null, -1, diff + " (revision " + config.revision() + ")");
            c.bumpGroupEpoch(Objects.requireNonNull(reason, "reason"), null);
        }
        c.maybeRecompute();
        return c.result(null);
    }

    private static void throwIfRefused(GroupConfig current, GroupConfig offered, ChangeReason reason) {
        String group = current.groupId();
        GroupConfigDiff diff = GroupConfigDiff.between(current, offered);
        boolean versioned = offered.revision() > 0 || current.revision() > 0;
        if (versioned && offered.revision() < current.revision()) {
            throw new GroupConfigRefusedException("group '" + group + "' has the configuration of revision "
                    + current.revision() + "; this one is of the older revision " + offered.revision() + " and "
                    + "differs in " + diff + ": the group keeps the newer one. This worker runs an older definition "
                    + "of the listener: update its listener file (or wait for it to read the stored definition) and "
                    + "restart the listener here");
        }
        if (versioned && offered.revision() == current.revision()) {
            throw new GroupConfigRefusedException("group '" + group + "' has a configuration of revision "
                    + current.revision() + " that differs from this one of the same revision in " + diff
                    + ": workers disagree about the group's settings (the timeouts come from each worker's "
                    + "worker.properties unless the listener sets them). Make them agree, or set the keys in the "
                    + "listener (a new revision applies to every worker)");
        }
        List<String> resharded = GroupConfigDiff.reshardedStreams(current, offered);
        if (reason == ChangeReason.CONFIG_CHANGED && !resharded.isEmpty()) {
            throw new GroupConfigRefusedException("group '" + group + "': " + String.join(", ", resharded)
                    + ": a stream's shard count does not change by editing a listener (the group would never read "
                    + "the records of the other layout). Keep the group's count in the listener's streams setting and "
                    + "change the stream's count with bin/shardline streams reshard <stream> --shards N (see "
                    + "docs/operations.md, Changing the shard count)");
        }
    }

    /**
     * Deletes a group that has no member (a static member's reservation counts as one, until it expires): emits
     * its tombstone, so that neither this leader nor a successor replaying the store knows it any more. A member
     * joining later configures the group anew. Refused (nothing emitted) while any member remains.
     */
    public CoordinatorResult<GroupDeletion> deleteGroup(String groupId) {
        Group group = groups.get(Objects.requireNonNull(groupId, "groupId"));
        if (group == null) {
            return new CoordinatorResult<>(List.of(), new GroupDeletion(GroupDeletion.Outcome.NOT_FOUND, List.of()));
        }
        if (!group.members().isEmpty()) {
            return new CoordinatorResult<>(List.of(), new GroupDeletion(GroupDeletion.Outcome.HAS_MEMBERS,
                    new ArrayList<>(new TreeSet<>(group.members().keySet()))));
        }
        GroupDeletedRecord tombstone = Records.newGroupTombstone(groupId);
        replay(tombstone);
        return new CoordinatorResult<>(List.of(tombstone), new GroupDeletion(GroupDeletion.Outcome.DELETED, List.of()));
    }

    /** Handles one heartbeat (join, rejoin or steady state). */
    public CoordinatorResult<HeartbeatResponse> heartbeat(long nowMs, HeartbeatRequest request) {
        Group group = groups.get(request.groupId());
        if (group == null) {
            metrics.heartbeat(request.groupId(), ErrorCode.GROUP_NOT_FOUND);
            return new CoordinatorResult<>(List.of(), HeartbeatResponse.error(ErrorCode.GROUP_NOT_FOUND,
                    new GroupNotFoundException("group '" + request.groupId() + "' is not configured").getMessage(),
                    request.memberId(), 1000, 0));
        }
        GroupChanges c = changes(group, nowMs);
        expireOverdue(group, c, nowMs, request.memberId());
        HeartbeatResponse response;
        try {
            response = LeaseCallBack.apply(group, nowMs, MemberLifecycle.heartbeat(c, request));
        } catch (CoordinatorException e) {
            response = HeartbeatResponse.error(e.errorCode(), e.getMessage(), request.memberId(),
                    group.config().heartbeatIntervalMs(), group.config().sessionTimeoutMs());
        }
        metrics.heartbeat(request.groupId(), response.error());
        return c.result(response);
    }

    /** Handles a graceful leave: the member has stopped every shard. */
    public CoordinatorResult<LeaveResponse> leave(long nowMs, LeaveRequest request) {
        Group group = groups.get(request.groupId());
        if (group == null) {
            return new CoordinatorResult<>(List.of(), new LeaveResponse(ErrorCode.GROUP_NOT_FOUND,
                    "group '" + request.groupId() + "' is not configured"));
        }
        GroupChanges c = changes(group, nowMs);
        try {
            MemberLifecycle.leave(c, request);
            return c.result(LeaveResponse.OK);
        } catch (CoordinatorException e) {
            return c.result(new LeaveResponse(e.errorCode(), e.getMessage()));
        }
    }

    /**
     * Expires members whose lease passed (their shards are released: each member stopped processing by its own
     * earlier deadline) and static reservations that timed out, fences members whose revocation is pending
     * longer than the rebalance timeout, then recomputes targets. Call it at least every heartbeat interval.
     */
    public CoordinatorResult<Void> tick(long nowMs) {
        List<CoordinatorRecord> records = new ArrayList<>();
        List<AuditEvent> events = new ArrayList<>();
        for (Group group : groups.values()) {
            GroupChanges c = changes(group, nowMs);
            for (Member m : new ArrayList<>(group.members().values())) {
                if (group.leaseDeadline(m.memberId()) == null) {
                    c.renewLease(m.memberId());
                }
            }
            expireOverdue(group, c, nowMs, null);
            for (Member m : new ArrayList<>(group.members().values())) {
                c.maybeFenceOverdueRevocation(m);
            }
            c.maybeRecompute();
            records.addAll(c.records());
            events.addAll(c.events());
        }
        return new CoordinatorResult<>(records, null, events);
    }

    /** The records that rebuild every group's persisted state (for store compaction). */
    public List<CoordinatorRecord> snapshot() {
        List<CoordinatorRecord> out = new ArrayList<>();
        groups.values().forEach(g -> out.addAll(g.snapshot()));
        return out;
    }

    /** The read model of {@code groupId}. */
    public Optional<GroupView> describe(String groupId) {
        Group g = groups.get(groupId);
        return g == null ? Optional.empty() : Optional.of(GroupView.of(g));
    }

    /** The group {@code groupId} for read-only inspection (tests, the host), or empty. */
    public Optional<Group> group(String groupId) {
        return Optional.ofNullable(groups.get(groupId));
    }

    /** The ids of the hosted groups. */
    public SortedSet<String> groupIds() {
        return new TreeSet<>(groups.keySet());
    }

    /**
     * Expires the members of {@code group} whose lease passed, except {@code asking} (the member whose heartbeat is
     * being handled, or null): their shards are released, each member having stopped processing by its own earlier
     * deadline. A heartbeat expires them too, not only the tick, so that a member called back for the deadline
     * ({@link LeaseCallBack}) finds the released shards in its answer.
     */
    private void expireOverdue(Group group, GroupChanges c, long nowMs, String asking) {
        for (Member m : new ArrayList<>(group.members().values())) {
            Long deadline = group.leaseDeadline(m.memberId());
            if (deadline != null && nowMs >= deadline && !m.memberId().equals(asking)) {
                boolean reserved = m.state() == MemberState.LEFT_STATIC;
                c.removeMember(m, ChangeReason.MEMBER_EXPIRED, AuditType.MEMBER_EXPIRED);
                if (!reserved) {
                    metrics.memberExpired(group.groupId(), m.memberId());
                }
            }
        }
    }

    private GroupChanges changes(Group group, long nowMs) {
        return new GroupChanges(group, nowMs, this::replay, assignors, metrics);
    }
}
