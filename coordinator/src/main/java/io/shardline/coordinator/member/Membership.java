package io.shardline.coordinator.member;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.member.MemberAction.FenceAll;
import io.shardline.coordinator.member.MemberAction.RevokeShard;
import io.shardline.coordinator.member.MemberAction.StartShard;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.LeaveRequest;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The member side of the protocol: a pure reconciliation state machine. It builds heartbeats, applies answers
 * and returns {@link MemberAction}s (start, revoke, fence all) for the runtime to execute; the runtime reports
 * drained shards back. Time is an argument; at most one heartbeat is in flight, and an answer is applied only if
 * it belongs to the request in flight (stale, duplicated or late answers are ignored).
 *
 * <p><b>Lease.</b> After an answer without error to a request SENT at {@code t}, the member may process until
 * {@code t + sessionTimeout - margin} (margin capped at half the session timeout). The coordinator renewed the
 * lease when it RECEIVED that request ({@code >= t}) and expires the member at {@code received + sessionTimeout}
 * at the earliest, so the member stops strictly before anyone else may get its shards. The runtime must call
 * {@link #tick(long)} at {@link #leaseDeadlineMs()}; every method checks the deadline first anyway (a
 * {@link FenceAll} decided by a method that returns no actions is handed out by the next {@code tick}), and
 * {@link #mayProcess(ShardId, long)} is false past the deadline.
 *
 * <p><b>Rebalance timeout.</b> A revoked shard that has not drained {@code rebalanceTimeoutMs} after the member
 * learnt of its revocation makes the member fence itself (stop everything, rejoin with epoch 0), as Kafka's
 * consumer leaves the group when {@code max.poll.interval.ms} passes. The coordinator fences the member at its own
 * deadline, counted from when it decided the revocation (never later than when the member learnt of it), so
 * usually the member learns of its fence first, from a {@code FENCED_MEMBER_EPOCH} answer. Every fence starts a
 * new <i>generation</i>: drains of an earlier generation that complete later are ignored
 * ({@link #onShardDrained(ShardId, int)}). The runtime must call {@link #tick(long)} at
 * {@link #revocationDeadlineMs()} too.
 *
 * <p>Not thread-safe: the runtime calls it from one thread (the member's Vert.x context).
 */
public final class Membership {

    private final MembershipConfig config;
    private MembershipState state = MembershipState.UNJOINED;
    private int memberEpoch;
    private int assignmentEpoch;
    private final TreeMap<ShardId, Integer> owned = new TreeMap<>();
    private final TreeMap<ShardId, RevokeState> revoking = new TreeMap<>();
    private final Set<ShardId> revokedUnsent = new HashSet<>();
    private final TreeMap<ShardId, Long> drainDeadlines = new TreeMap<>();
    private int generation;
    private final List<MemberAction> undelivered = new ArrayList<>();
    private SortedSet<ShardId> pending = Collections.emptySortedSet();
    private long nextRequestId = 1;
    private long inFlightId = -1;
    private long inFlightSentAtMs;
    private Set<ShardId> inFlightRevoked = Set.of();
    private long leaseDeadlineMs = Long.MIN_VALUE;
    /** +1 on every change of {@link #owned}; the version the request in flight and the last answered request had. */
    private int ownedVersion;
    private int inFlightOwnedVersion;
    private int ackedOwnedVersion = -1;
    private int heartbeatIntervalMs;
    private long nextHeartbeatAtMs = Long.MIN_VALUE;

    /** A member that has not joined yet. */
    public Membership(MembershipConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.heartbeatIntervalMs = config.initialHeartbeatIntervalMs();
    }

    /** True when the runtime should send a heartbeat now. */
    public boolean heartbeatDue(long nowMs) {
        if (inFlightId >= 0 || state == MembershipState.LEFT || leaveReady()) {
            return false;
        }
        return nowMs >= nextHeartbeatAtMs || !revokedUnsent.isEmpty();
    }

    /** When the next heartbeat is due (earlier if a drained shard must be reported). */
    public long nextHeartbeatAtMs() {
        return nextHeartbeatAtMs;
    }

    /**
     * Builds the next heartbeat and marks it in flight: a join (epoch 0, nothing owned) when not joined, else the
     * current epoch with the shards being revoked and the shards owned, the latter only when they changed since the
     * last request answered without error (KIP-848's delta; after a failed request or an error answer they are sent
     * again: a resync, docs/protocol.md section 2).
     *
     * @throws IllegalStateException when a heartbeat is already in flight or the member left
     */
    public SentHeartbeat heartbeat(long nowMs) {
        maybeSelfFence(nowMs);
        if (inFlightId >= 0 || state == MembershipState.LEFT) {
            throw new IllegalStateException("member '" + config.memberId() + "': cannot send a heartbeat in state "
                    + state + (inFlightId >= 0 ? " with request " + inFlightId + " in flight" : ""));
        }
        if (state == MembershipState.UNJOINED || state == MembershipState.FENCED) {
            transitionTo(MembershipState.JOINING);
        }
        boolean join = state == MembershipState.JOINING;
        boolean unchanged = !join && ownedVersion == ackedOwnedVersion;
        List<RevokeReport> reports = new ArrayList<>();
        revoking.forEach((s, st) -> reports.add(new RevokeReport(s, st)));
        HeartbeatRequest request = new HeartbeatRequest(config.groupId(), config.memberId(), join ? 0 : memberEpoch,
                config.instanceId(), config.rack(), config.subscriptions(),
                join || unchanged ? new TreeSet<>() : new TreeSet<>(owned.keySet()), join ? List.of() : reports,
                join ? 0 : assignmentEpoch, config.weight(), unchanged);
        inFlightOwnedVersion = ownedVersion;
        inFlightId = nextRequestId++;
        inFlightSentAtMs = nowMs;
        inFlightRevoked = new HashSet<>(revokedUnsent);
        revokedUnsent.clear();
        nextHeartbeatAtMs = nowMs + heartbeatIntervalMs;
        return new SentHeartbeat(inFlightId, request);
    }

    /** Applies the answer to request {@code requestId}; ignored unless it is the request in flight. */
    public List<MemberAction> onResponse(long nowMs, long requestId, HeartbeatResponse response) {
        List<MemberAction> actions = new ArrayList<>(tick(nowMs));
        if (requestId != inFlightId || state == MembershipState.LEFT) {
            return actions;
        }
        long sentAt = inFlightSentAtMs;
        boolean wasJoin = state == MembershipState.JOINING;
        inFlightId = -1;
        nextHeartbeatAtMs = nowMs + Math.max(1, response.heartbeatIntervalMs());
        if (response.error() != ErrorCode.NONE) {
            ackedOwnedVersion = -1;
            revokedUnsent.addAll(inFlightRevoked);
            if (response.error().requiresRejoin()) {
                actions.addAll(fenceAll("coordinator answered " + response.error() + ": " + response.errorMessage()));
                nextHeartbeatAtMs = nowMs;
            } else if (wasJoin) {
                transitionTo(MembershipState.UNJOINED);
            }
            return actions;
        }
        if (response.assignmentUnchanged()
                && (response.memberEpoch() != memberEpoch || response.assignmentEpoch() != assignmentEpoch)) {
            actions.addAll(fenceAll("the coordinator left out the assignment of epochs " + response.memberEpoch() + "/"
                    + response.assignmentEpoch() + " but this member applied " + memberEpoch + "/" + assignmentEpoch));
            nextHeartbeatAtMs = nowMs;
            return actions;
        }
        ackedOwnedVersion = inFlightOwnedVersion;
        heartbeatIntervalMs = Math.max(1, response.heartbeatIntervalMs());
        int margin = Math.min(config.selfFenceMarginMs(), response.sessionTimeoutMs() / 2);
        leaseDeadlineMs = Math.max(leaseDeadlineMs, sentAt + response.sessionTimeoutMs() - margin);
        memberEpoch = response.memberEpoch();
        assignmentEpoch = response.assignmentEpoch();
        for (ShardId s : inFlightRevoked) {
            if (revoking.get(s) == RevokeState.REVOKED) {
                revoking.remove(s);
                drainDeadlines.remove(s);
            }
        }
        if (state == MembershipState.LEAVING) {
            return actions;
        }
        if (response.assignmentUnchanged()) {
            transitionTo(revoking.isEmpty() && pending.isEmpty() ? MembershipState.STABLE : MembershipState.RECONCILING);
            return actions; // a steady answer: the assignment applied last is still the member's (no work per shard)
        }
        pending = response.pending();
        return reconcile(nowMs, response.assigned(), actions);
    }

    private List<MemberAction> reconcile(long nowMs, SortedMap<ShardId, Integer> assigned,
            List<MemberAction> actions) {
        // Copy the keys: a TreeMap entry object may be reused for another key when a node is removed.
        for (ShardId shard : new ArrayList<>(owned.keySet())) {
            Integer ownedEpoch = owned.get(shard);
            Integer epoch = assigned.get(shard);
            if (epoch == null) {
                owned.remove(shard);
                ownedVersion++;
                startDrain(shard, nowMs);
                actions.add(new RevokeShard(shard, generation));
            } else if (!epoch.equals(ownedEpoch)) {
                actions.addAll(fenceAll("owner epoch of " + shard + " changed from " + ownedEpoch + " to " + epoch
                        + " while owned"));
                return actions;
            }
        }
        for (Map.Entry<ShardId, Integer> e : assigned.entrySet()) {
            if (!owned.containsKey(e.getKey())) {
                if (revoking.containsKey(e.getKey())) {
                    actions.addAll(fenceAll(e.getKey() + " granted again before its revocation was accepted"));
                    return actions;
                }
                owned.put(e.getKey(), e.getValue());
                ownedVersion++;
                actions.add(new StartShard(e.getKey(), e.getValue()));
            }
        }
        transitionTo(revoking.isEmpty() && pending.isEmpty() ? MembershipState.STABLE : MembershipState.RECONCILING);
        return actions;
    }

    /**
     * Makes the next heartbeat due no later than {@code atMs}: the runtime retries sooner than one interval when the
     * coordinator moved (an answer {@code NOT_COORDINATOR}, a failed request, a new leader in its cluster view), so
     * that the member's lease is renewed by the new coordinator before it runs out. Safe at any time: a heartbeat only
     * ever extends the lease by an answer to it.
     */
    public void expediteHeartbeat(long atMs) {
        nextHeartbeatAtMs = Math.min(nextHeartbeatAtMs, atMs);
    }

    /** The request {@code requestId} failed (timeout, transport error): the next heartbeat may be sent. */
    public void onRequestFailed(long nowMs, long requestId) {
        maybeSelfFence(nowMs);
        if (requestId != inFlightId) {
            return;
        }
        inFlightId = -1;
        ackedOwnedVersion = -1;
        revokedUnsent.addAll(inFlightRevoked);
        if (state == MembershipState.JOINING) {
            transitionTo(MembershipState.UNJOINED);
        }
    }

    /**
     * The runtime finished draining {@code shard} for the revocation asked in {@code revocationGeneration}
     * ({@link RevokeShard#generation()}): it will be reported {@code REVOKED}. Ignored when the member fenced itself
     * since (the drain belongs to an earlier generation) or the shard is not draining.
     */
    public void onShardDrained(ShardId shard, int revocationGeneration) {
        if (revocationGeneration == generation && revoking.get(shard) == RevokeState.DRAINING) {
            revoking.put(shard, RevokeState.REVOKED);
            revokedUnsent.add(shard);
            drainDeadlines.remove(shard);
        }
    }

    /**
     * Redis refused a fenced read or acknowledgement of {@code shard} under {@code ownerEpoch}: another owner or
     * epoch is recorded there, so this member's view of its assignment is stale. As Kafka's consumer does on a
     * fenced commit, the member drops every shard ({@link FenceAll}) and rejoins with its next heartbeat, which
     * is due at once. Ignored (no action) when the member no longer holds the shard under that epoch: it was
     * revoked, reassigned or the member fenced itself already.
     */
    public List<MemberAction> onShardFenced(long nowMs, ShardId shard, long ownerEpoch, String reason) {
        List<MemberAction> actions = new ArrayList<>(tick(nowMs));
        Integer owned = this.owned.get(shard);
        boolean held = owned != null && owned == ownerEpoch || revoking.get(shard) == RevokeState.DRAINING;
        if (!state.mayHoldShards() || !held) {
            return actions;
        }
        actions.addAll(fenceAll("Redis refused " + shard + " under owner epoch " + ownerEpoch + ": " + reason));
        nextHeartbeatAtMs = nowMs;
        return actions;
    }

    /** {@link #onShardDrained(ShardId, int)} for a drain asked in the current generation. */
    public void onShardDrained(ShardId shard) {
        onShardDrained(shard, generation);
    }

    /**
     * Self-fences when the lease passed, or when a revoked shard did not drain within the rebalance timeout, and
     * returns the {@link FenceAll} not yet handed to the runtime (also one decided inside {@link #heartbeat},
     * {@link #onRequestFailed} or {@link #leaveRequest}, which return no actions): each exactly once.
     */
    public List<MemberAction> tick(long nowMs) {
        maybeSelfFence(nowMs);
        if (undelivered.isEmpty()) {
            return List.of();
        }
        List<MemberAction> out = List.copyOf(undelivered);
        undelivered.clear();
        return out;
    }

    /** The self-fencing decision of {@link #tick}; the action waits in {@code undelivered}. */
    private void maybeSelfFence(long nowMs) {
        if (state.mayHoldShards() && nowMs >= leaseDeadlineMs) {
            undelivered.addAll(fenceAll("no answer since the lease deadline " + leaseDeadlineMs + " (now " + nowMs
                    + ")"));
        } else if (state.mayHoldShards() && nowMs >= revocationDeadlineMs()) {
            ShardId hung = firstOverdueDrain();
            undelivered.addAll(fenceAll("rebalance timeout: " + hung + " did not drain within "
                    + config.rebalanceTimeoutMs() + " ms (deadline " + drainDeadlines.get(hung) + ", now " + nowMs
                    + ")"));
            nextHeartbeatAtMs = nowMs;
        }
    }

    /**
     * When the oldest drain still running runs out of time ({@code Long.MAX_VALUE} when nothing drains): the
     * member fences itself then.
     */
    public long revocationDeadlineMs() {
        long first = Long.MAX_VALUE;
        for (Map.Entry<ShardId, Long> e : drainDeadlines.entrySet()) {
            if (revoking.get(e.getKey()) == RevokeState.DRAINING) {
                first = Math.min(first, e.getValue());
            }
        }
        return first;
    }

    private ShardId firstOverdueDrain() {
        long deadline = revocationDeadlineMs();
        for (Map.Entry<ShardId, Long> e : drainDeadlines.entrySet()) {
            if (e.getValue() == deadline && revoking.get(e.getKey()) == RevokeState.DRAINING) {
                return e.getKey();
            }
        }
        throw new IllegalStateException("member '" + config.memberId() + "': no drain has deadline " + deadline);
    }

    private void startDrain(ShardId shard, long nowMs) {
        revoking.put(shard, RevokeState.DRAINING);
        drainDeadlines.put(shard, nowMs + config.rebalanceTimeoutMs());
    }

    /** Starts a graceful leave: every owned shard is revoked; the leave is sent once all are drained. */
    public List<MemberAction> leave(long nowMs) {
        List<MemberAction> actions = new ArrayList<>(tick(nowMs));
        if (state == MembershipState.LEFT || state == MembershipState.LEAVING) {
            return actions;
        }
        for (ShardId s : new ArrayList<>(owned.keySet())) {
            owned.remove(s);
            ownedVersion++;
            startDrain(s, nowMs);
            actions.add(new RevokeShard(s, generation));
        }
        transitionTo(MembershipState.LEAVING);
        return actions;
    }

    /**
     * The leave to send once every shard is drained (the member is then {@code LEFT}); empty before that. A
     * member that never joined leaves without a request.
     */
    public Optional<LeaveRequest> leaveRequest(long nowMs) {
        maybeSelfFence(nowMs);
        if (!leaveReady()) {
            return Optional.empty();
        }
        boolean joined = memberEpoch > 0;
        int epoch = memberEpoch;
        owned.clear();
        ownedVersion++;
        revoking.clear();
        drainDeadlines.clear();
        inFlightId = -1;
        transitionTo(MembershipState.LEFT);
        return joined ? Optional.of(new LeaveRequest(config.groupId(), config.memberId(), epoch)) : Optional.empty();
    }

    private boolean leaveReady() {
        if (state != MembershipState.LEAVING) {
            return false;
        }
        for (RevokeState s : revoking.values()) {
            if (s != RevokeState.REVOKED) {
                return false;
            }
        }
        return true;
    }

    /**
     * True when the member may read, process and acknowledge {@code shard} now: it holds the shard (owned, or
     * draining), its lease has not passed and no drain has run past the rebalance timeout (it is about to fence
     * itself).
     */
    public boolean mayProcess(ShardId shard, long nowMs) {
        return state.mayHoldShards() && nowMs < leaseDeadlineMs
                && (owned.containsKey(shard) || revoking.get(shard) == RevokeState.DRAINING)
                && (drainDeadlines.isEmpty() || nowMs < revocationDeadlineMs());
    }

    private List<MemberAction> fenceAll(String reason) {
        TreeSet<ShardId> dropped = new TreeSet<>(owned.keySet());
        dropped.addAll(revoking.keySet());
        owned.clear();
        ownedVersion++;
        ackedOwnedVersion = -1;
        revoking.clear();
        revokedUnsent.clear();
        drainDeadlines.clear();
        generation++;
        pending = Collections.emptySortedSet();
        memberEpoch = 0;
        assignmentEpoch = 0;
        inFlightId = -1;
        leaseDeadlineMs = Long.MIN_VALUE;
        transitionTo(state == MembershipState.LEAVING ? MembershipState.LEFT : MembershipState.FENCED);
        return List.of(new FenceAll(dropped, reason));
    }

    private void transitionTo(MembershipState next) {
        if (!next.previousValidStates().contains(state)) {
            throw new IllegalStateException("member '" + config.memberId() + "' (epoch " + memberEpoch
                    + "): invalid transition " + state + " -> " + next);
        }
        state = next;
    }

    /** The state. */
    public MembershipState state() {
        return state;
    }

    /** The member epoch (0 when not joined). */
    public int memberEpoch() {
        return memberEpoch;
    }

    /** The assignment epoch of the last applied answer. */
    public int assignmentEpoch() {
        return assignmentEpoch;
    }

    /** The shards owned now, with their owner epochs. */
    public SortedMap<ShardId, Integer> owned() {
        return Collections.unmodifiableSortedMap(new TreeMap<>(owned));
    }

    /** The shards being revoked, with their state. */
    public SortedMap<ShardId, RevokeState> revoking() {
        return Collections.unmodifiableSortedMap(new TreeMap<>(revoking));
    }

    /** The pending shards of the last answer. */
    public SortedSet<ShardId> pending() {
        return pending;
    }

    /** The self-fencing deadline: the member processes nothing from then on ({@code Long.MIN_VALUE} if none). */
    public long leaseDeadlineMs() {
        return leaseDeadlineMs;
    }

    /** The fencing generation: +1 every time the member drops everything ({@link FenceAll}). */
    public int generation() {
        return generation;
    }

    /** The member's configuration. */
    public MembershipConfig config() {
        return config;
    }
}
