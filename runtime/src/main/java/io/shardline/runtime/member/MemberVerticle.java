package io.shardline.runtime.member;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.member.MemberAction;
import io.shardline.coordinator.member.Membership;
import io.shardline.coordinator.member.MembershipConfig;
import io.shardline.coordinator.member.MembershipState;
import io.shardline.coordinator.member.SentHeartbeat;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.LeaveRequest;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.coordinator.CoordinatorWire;
import io.shardline.runtime.coordinator.RebalanceHints;
import io.shardline.runtime.metrics.MemberMetrics;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One logical member's heartbeat loop: drives the pure {@link Membership} (lease, self-fencing,
 * reconciliation) on this verticle's context and executes its actions on the member's shards
 * ({@link MemberShardsPort}), telling them the lease deadline first ({@link MemberShardsPort#leaseUntil}).
 * Heartbeats go over the clustered event bus to the worker the cluster view names as leader, or to the
 * worker a {@code NOT_COORDINATOR} answer named ({@link CoordinatorWire#COORDINATOR_HINT}, a graceful
 * hand-over, or the worker that holds the leader epoch) until the view changes. When the coordinator moves, the
 * member does not wait a heartbeat interval, so that its lease is renewed before it runs out: a {@code NOT_COORDINATOR}
 * answer or a failed request is retried after a short backoff (doubling up to the interval), a named successor at
 * once, and a request in flight to a worker that is no longer the target is abandoned and sent again to the new one.
 * A worker that fails a request or leaves one unanswered for a heartbeat interval is <i>suspected</i>: the next
 * heartbeat goes to the next worker of the view instead (which answers as the new leader once it took the epoch, or
 * names the worker that holds it), so a frozen leader, still in every view until Hazelcast notices, costs the members
 * one interval, not their leases.
 * {@code GROUP_NOT_FOUND} makes the member send its group's configuration first. {@link #leave()} revokes
 * every shard, waits for them to drain (reporting REVOKED), then sends the leave.
 *
 * <p>Context-confined: the membership is only touched on this verticle's context.
 */
public final class MemberVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(MemberVerticle.class);

    private final String clusterName;
    private final Membership membership;
    private final GroupConfig groupConfig;
    private final MemberShardsPort shards;
    private final Supplier<LeaderView> view;
    private final LongSupplier clockMs;
    private final long pollMs;
    private final long retryMs;
    private long timer = -1;
    /** The coordinator's hints to heartbeat now ({@link RebalanceHints}), registered on start. */
    private MessageConsumer<JsonObject> rebalanced;
    private Promise<Void> left;
    private boolean leaveInFlight;
    private MemberMetrics metrics;
    /** The heartbeat awaiting an answer and the worker it went to, or null. */
    private SentHeartbeat inFlight;
    private String inFlightTo;
    /** The worker a NOT_COORDINATOR answer named, used while the view's leader is {@link #hintViewLeader}. */
    private String coordinatorHint;
    private String hintViewLeader;
    /** The worker that failed a heartbeat or left one unanswered for an interval (skipped as a target), or null. */
    private String suspect;
    /** When this member suspected {@link #suspect} (its clock). */
    private long suspectedAtMs;
    /** NOT_COORDINATOR answers in a row that named the suspect without saying how long it was silent. */
    private int suspectNamed;
    private long inFlightSentAtMs;
    /** The view's leader at the last step, to notice a leader change. */
    private String viewLeader;
    /** Heartbeats in a row that failed or reached a worker that does not coordinate (for the retry backoff). */
    private int misses;
    /** Whether the coordinator confirmed this loop's group configuration ({@link #maybeConfigure}). */
    private boolean configured;
    private boolean configureInFlight;
    /** When the last answer without error arrived (Long.MIN_VALUE before the first). */
    private long lastRenewalAtMs = Long.MIN_VALUE;

    /**
     * Creates the loop.
     *
     * @param heartbeatIntervalMs initial interval; the self-fence margin is two intervals
     * @param pollMs how often due heartbeats and the lease deadline are checked
     */
    public MemberVerticle(String clusterName, String memberId, GroupConfig groupConfig, MemberShardsPort shards,
                          Supplier<LeaderView> view, LongSupplier clockMs, int heartbeatIntervalMs, long pollMs) {
        this(clusterName, memberId, MemberIdentity.NONE, groupConfig, shards, view, clockMs, heartbeatIntervalMs, pollMs);
    }

    /**
     * Creates the loop of a member that sends {@code identity} (static instance id, rack) with its heartbeats.
     *
     * @param heartbeatIntervalMs initial interval; the self-fence margin is two intervals
     * @param pollMs how often due heartbeats and the lease deadline are checked
     */
    public MemberVerticle(String clusterName, String memberId, MemberIdentity identity, GroupConfig groupConfig,
                          MemberShardsPort shards, Supplier<LeaderView> view, LongSupplier clockMs,
                          int heartbeatIntervalMs, long pollMs) {
        this.clusterName = clusterName;
        this.groupConfig = groupConfig;
        this.shards = shards;
        this.view = view;
        this.clockMs = clockMs;
        this.pollMs = pollMs;
        this.retryMs = Math.max(pollMs, heartbeatIntervalMs / 5);
        this.membership = new Membership(new MembershipConfig(groupConfig.groupId(), memberId, identity.instanceId(),
                identity.rack(), new TreeSet<>(groupConfig.streams().keySet()), heartbeatIntervalMs,
                2 * heartbeatIntervalMs, groupConfig.rebalanceTimeoutMs(), identity.weight()));
    }

    @Override
    public Future<?> start() {
        timer = vertx.setPeriodic(pollMs, id -> step());
        rebalanced = new RebalanceHints(vertx, clusterName).listen(groupConfig.groupId(), memberId(), () -> {
            membership.expediteHeartbeat(clockMs.getAsLong());
            step();
        });
        step();
        return Future.succeededFuture();
    }

    @Override
    public Future<?> stop() {
        vertx.cancelTimer(timer);
        rebalanced.unregister();
        return Future.succeededFuture();
    }

    /** Leaves the group gracefully; completes once the leave was answered (or the member never joined). */
    public Future<Void> leave() {
        Promise<Void> done = Promise.promise();
        context.runOnContext(v -> {
            if (left == null) {
                left = done;
                LOG.info("Member {} leaving group {}: revoking {}", memberId(), groupConfig.groupId(),
                        membership.owned().keySet());
                execute(membership.leave(clockMs.getAsLong()));
                step();
            } else {
                left.future().onComplete(done);
            }
        });
        return done.future();
    }

    /** The shards owned now with their owner epochs, read on the context. */
    public Future<SortedMap<ShardId, Integer>> owned() {
        Promise<SortedMap<ShardId, Integer>> p = Promise.promise();
        context.runOnContext(v -> p.complete(membership.owned()));
        return p.future();
    }

    /**
     * Feeds {@code metrics} (heartbeat latency and failures, member epoch, assignment changes); call before
     * deploying. Without it nothing is recorded.
     *
     * @return this loop
     */
    public MemberVerticle metrics(MemberMetrics metrics) {
        this.metrics = metrics;
        return this;
    }

    /**
     * The member's poller stopped {@code shard} as fenced. When Redis refused a shard this member still holds
     * under {@code ownerEpoch}, the member drops all its shards and rejoins at once, as Kafka's consumer does on a
     * fenced commit ({@link Membership#onShardFenced}); otherwise (already revoked, or the member fenced itself)
     * nothing happens. Any thread.
     */
    public void shardFenced(ShardId shard, long ownerEpoch, String reason) {
        context.runOnContext(v -> {
            List<MemberAction> actions = membership.onShardFenced(clockMs.getAsLong(), shard, ownerEpoch, reason);
            if (!actions.isEmpty()) {
                LOG.warn("Member {}: Redis fenced {} (owner epoch {}); rejoining: {}", memberId(), shard, ownerEpoch, reason);
                execute(actions);
                step();
            }
        });
    }

    /** The member id. */
    public String memberId() {
        return membership.config().memberId();
    }

    private void step() {
        long now = clockMs.getAsLong();
        execute(membership.tick(now));
        suspectSilentTarget(now);
        followView(now);
        if (left != null && !leaveInFlight) {
            Optional<LeaveRequest> leave = membership.leaveRequest(now);
            if (leave.isPresent()) {
                sendLeave(leave.get());
                return;
            }
            if (membership.state() == MembershipState.LEFT) {
                left.tryComplete();
                return;
            }
        }
        if (membership.heartbeatDue(now)) {
            sendHeartbeat(now);
        }
    }

    private void sendHeartbeat(long now) {
        SentHeartbeat sent = membership.heartbeat(now);
        String leader = target();
        inFlight = sent;
        inFlightTo = leader;
        inFlightSentAtMs = now;
        // A slow answer is still safe (the lease counts from the send time), so wait generously: under load a
        // join (records persisted, owner keys written) can take longer than one interval. A request to a worker
        // that stops being the target is abandoned earlier (followView).
        DeliveryOptions options = new DeliveryOptions().setSendTimeout(Math.max(2_000,
                3L * membership.config().initialHeartbeatIntervalMs()));
        vertx.eventBus().<JsonObject>request(CoordinatorWire.address(clusterName, leader),
                        CoordinatorWire.toJson(sent.request()), options)
                .onComplete(ar -> context.runOnContext(x -> {
                    long at = clockMs.getAsLong();
                    execute(membership.tick(at)); // a lease that ran out meanwhile fences before anything else
                    if (inFlight != sent) {
                        return; // abandoned for a new coordinator: its answer (or failure) means nothing now
                    }
                    inFlight = null;
                    if (ar.failed()) {
                        LOG.info("Member {}: heartbeat to {} failed: {}", memberId(), leader, ar.cause().getMessage());
                        suspect(leader, at);
                        if (metrics != null) {
                            metrics.heartbeatFailed();
                        }
                        membership.onRequestFailed(at, sent.requestId());
                        execute(membership.tick(at));
                        retrySoon(at);
                        return;
                    }
                    HeartbeatResponse response = CoordinatorWire.heartbeatResponse(ar.result().body());
                    if (leader.equals(suspect)) {
                        suspect = null;
                    }
                    if (metrics != null) {
                        metrics.heartbeat(TimeUnit.MILLISECONDS.toNanos(at - now));
                        if (response.error() == ErrorCode.NONE) {
                            metrics.epoch(response.memberEpoch());
                        }
                    }
                    if (response.error() == ErrorCode.GROUP_NOT_FOUND) {
                        configureGroup(leader);
                    } else if (response.error() != ErrorCode.NONE) {
                        LOG.info("Member {}: heartbeat answered {}: {}", memberId(), response.error(),
                                response.errorMessage());
                    }
                    execute(membership.onResponse(at, sent.requestId(), response));
                    if (response.error() == ErrorCode.NOT_COORDINATOR) {
                        JsonObject body = ar.result().body();
                        followHint(at, leader, body.getString(CoordinatorWire.COORDINATOR_HINT),
                                body.getLong(CoordinatorWire.COORDINATOR_SILENT_MS, -1L));
                    } else {
                        misses = 0;
                    }
                    if (response.error() == ErrorCode.NONE) {
                        renewed(at, leader);
                        maybeConfigure(leader);
                    }
                    if (membership.heartbeatDue(at)) {
                        step();
                    }
                }));
    }

    /** Logs a renewal that came late (more than two intervals after the previous one): the chaos suite reads these. */
    private void renewed(long at, String by) {
        long interval = membership.config().initialHeartbeatIntervalMs();
        if (lastRenewalAtMs != Long.MIN_VALUE && at - lastRenewalAtMs > 2 * interval) {
            LOG.info("Member {}: lease renewed by {} after {} ms without a renewal (lease now ends in {} ms)", memberId(),
                    by, at - lastRenewalAtMs, membership.leaseDeadlineMs() - at);
        }
        lastRenewalAtMs = at;
    }

    /**
     * Where heartbeats go: the worker a NOT_COORDINATOR answer named while the view is unchanged, else the view's
     * leader; a suspected worker is skipped for the next one in view order.
     */
    private String target() {
        LeaderView v = view.get();
        String leader = v.leader().workerId();
        if (coordinatorHint != null && !(leader.equals(hintViewLeader)
                && v.members().stream().anyMatch(m -> m.workerId().equals(coordinatorHint)))) {
            coordinatorHint = null;
        }
        if (coordinatorHint != null && !coordinatorHint.equals(suspect)) {
            return coordinatorHint;
        }
        String preferred = coordinatorHint != null ? coordinatorHint : leader;
        if (!preferred.equals(suspect)) {
            return preferred;
        }
        List<String> ids = v.members().stream().map(m -> m.workerId()).toList();
        int at = ids.indexOf(suspect);
        return ids.size() < 2 || at < 0 ? preferred : ids.get((at + 1) % ids.size());
    }

    /**
     * A heartbeat unanswered for an interval makes its worker suspected (a frozen or overloaded leader answers nothing
     * until Hazelcast removes it, seconds later): {@link #followView} then sends it again to the next worker.
     */
    private void suspectSilentTarget(long now) {
        if (inFlight != null && !inFlightTo.equals(suspect)
                && now - inFlightSentAtMs >= membership.config().initialHeartbeatIntervalMs()) {
            suspect(inFlightTo, now);
            LOG.info("Member {}: {} has not answered for {} ms; asking {}", memberId(), inFlightTo,
                    now - inFlightSentAtMs, target());
        }
    }

    private void suspect(String worker, long now) {
        suspect = worker;
        suspectedAtMs = now;
        suspectNamed = 0;
    }

    /**
     * The worker asked does not coordinate: go to the worker it named (at once the first time, so a graceful hand-over
     * costs one round trip; with the backoff after that, so two workers naming each other cannot make a storm), else
     * retry the same target after the backoff.
     *
     * <p>When it names the suspect, the answer says how long the suspect has written nothing ({@code hintSilentMs}). A
     * suspect silent since before this member suspected it has crashed or frozen: the worker asked, or the one it names
     * next, claims the leader epoch once the silence bound passed, so the member asks it again every
     * {@link #retryMs} without backing off (the successor's first answers come before the member's lease runs out;
     * going back to the dead leader meanwhile cost a failed request and a backoff, which a lease of
     * {@code session - 2 x heartbeat} after the last answer could not afford: docs/reliability.md, "Members follow the
     * coordinator at once"). A suspect that wrote since then is alive and only left this member's request unanswered:
     * the member goes back to it at once; so it does three intervals after suspecting it whatever the answers say (the
     * worker asked may have lost Redis, its last read growing stale), and after three answers without the figure.
     */
    private void followHint(long now, String asked, String hint, long hintSilentMs) {
        if (hint != null && hint.equals(suspect)) {
            long suspectedForMs = now - suspectedAtMs;
            long giveUpMs = 3L * membership.config().initialHeartbeatIntervalMs();
            boolean silent = hintSilentMs >= 0 ? hintSilentMs >= suspectedForMs && suspectedForMs < giveUpMs
                    : ++suspectNamed < 3;
            if (silent) {
                membership.expediteHeartbeat(now + retryMs);
                return;
            }
            suspect = null;
            suspectNamed = 0;
        }
        if (hint != null && !hint.equals(asked)) {
            coordinatorHint = hint;
            hintViewLeader = view.get().leader().workerId();
            LOG.info("Member {}: {} does not coordinate; it names {}", memberId(), asked, hint);
            if (misses == 0) {
                misses++;
                membership.expediteHeartbeat(now);
                return;
            }
        }
        retrySoon(now);
    }

    private void retrySoon(long now) {
        long backoff = Math.min(membership.config().initialHeartbeatIntervalMs(), retryMs << Math.min(misses, 8));
        misses++;
        membership.expediteHeartbeat(now + backoff);
    }

    /**
     * When the view names a new leader, the next heartbeat goes at once; a heartbeat in flight to a worker that is no
     * longer where heartbeats go (the view's leader changed, or a successor was named) is abandoned and sent again
     * at once: its answer, if any comes, is ignored, which is always safe (only an answer extends the lease).
     */
    private void followView(long now) {
        String leader = view.get().leader().workerId();
        if (!leader.equals(viewLeader)) {
            if (viewLeader != null) {
                misses = 0;
                suspect = null;
                membership.expediteHeartbeat(now);
            }
            viewLeader = leader;
        }
        if (inFlight == null || target().equals(inFlightTo)) {
            return;
        }
        LOG.info("Member {}: coordinator moved from {} to {}; sending the heartbeat again", memberId(), inFlightTo,
                target());
        SentHeartbeat abandoned = inFlight;
        inFlight = null;
        misses = 0;
        membership.onRequestFailed(now, abandoned.requestId());
        membership.expediteHeartbeat(now);
    }

    /**
     * Once per loop, after its first answer without error, the member sends its listener's group configuration
     * (assignor, protocol, zones...) to the coordinator that answered: a group that already existed with another
     * configuration (the listener changed) takes this one, so a changed setting is applied, not ignored. An equal
     * configuration changes nothing; an older one, or a disagreeing one of the same revision, or a changed shard
     * count is refused ({@code CONFIG_REFUSED}, logged as a warning with the coordinator's reason) and not sent
     * again by this loop. Sent again after a failed attempt.
     */
    private void maybeConfigure(String leader) {
        if (configured || configureInFlight) {
            return;
        }
        configureInFlight = true;
        vertx.eventBus().<JsonObject>request(CoordinatorWire.address(clusterName, leader), CoordinatorWire.toJson(groupConfig))
                .onComplete(ar -> context.runOnContext(x -> {
                    configureInFlight = false;
                    int error = ar.succeeded() ? ar.result().body().getInteger("error", -1) : -1;
                    configured = error == ErrorCode.NONE.code() || error == ErrorCode.CONFIG_REFUSED.code();
                    if (error == ErrorCode.CONFIG_REFUSED.code()) {
                        // Not sent again by this loop: the group keeps its configuration until a new definition.
                        LOG.warn("Member {}: the coordinator refused group {}'s configuration from this worker: {}",
                                memberId(), groupConfig.groupId(), ar.result().body().getString("errorMessage"));
                    } else if (!configured) {
                        LOG.info("Member {}: sending group {}'s configuration to {} failed, retried after the next "
                                + "heartbeat: {}", memberId(), groupConfig.groupId(), leader,
                                ar.succeeded() ? ar.result().body() : ar.cause().getMessage());
                    }
                }));
    }

    /**
     * The group does not exist yet (a new group's first member): sends its configuration, then joins at once instead
     * of a heartbeat interval later, so a new group's first member starts reading without waiting an interval
     * (docs/benchmarks.md, "Start-up").
     */
    private void configureGroup(String leader) {
        vertx.eventBus().<JsonObject>request(CoordinatorWire.address(clusterName, leader),
                        CoordinatorWire.toJson(groupConfig))
                .onComplete(ar -> context.runOnContext(x -> {
                    LOG.info("Member {}: configured group {} on {}: {}", memberId(), groupConfig.groupId(), leader,
                            ar.succeeded() ? ar.result().body() : ar.cause().getMessage());
                    if (ar.succeeded() && ar.result().body().getInteger("error", -1) == ErrorCode.NONE.code()) {
                        membership.expediteHeartbeat(clockMs.getAsLong());
                        step();
                    }
                }));
    }

    private void sendLeave(LeaveRequest request) {
        leaveInFlight = true;
        String leader = target();
        vertx.eventBus().<JsonObject>request(CoordinatorWire.address(clusterName, leader), CoordinatorWire.toJson(request))
                .onComplete(ar -> context.runOnContext(x -> {
                    LOG.info("Member {} left group {}: {}", memberId(), groupConfig.groupId(),
                            ar.succeeded() ? CoordinatorWire.leaveResponse(ar.result().body()) : ar.cause().getMessage());
                    left.tryComplete();
                }));
    }

    private void execute(List<MemberAction> actions) {
        // The shards learn the deadline before they are started (a renewed lease) or dropped (a fence).
        shards.leaseUntil(membership.leaseDeadlineMs());
        if (metrics != null && actions.stream().anyMatch(a -> a instanceof MemberAction.StartShard
                || a instanceof MemberAction.RevokeShard)) {
            metrics.rebalanced();
        }
        for (MemberAction action : actions) {
            if (action instanceof MemberAction.StartShard start) {
                LOG.info("Member {}: start {} (owner epoch {})", memberId(), start.shard(), start.ownerEpoch());
                shards.acquire(start.shard(), start.ownerEpoch()).onFailure(e ->
                        LOG.warn("Member {}: cannot start {}: {}", memberId(), start.shard(), e.getMessage()));
            } else if (action instanceof MemberAction.RevokeShard revoke) {
                LOG.info("Member {}: revoke {}", memberId(), revoke.shard());
                shards.release(revoke.shard()).onComplete(ar -> context.runOnContext(v -> {
                    membership.onShardDrained(revoke.shard(), revoke.generation());
                    step();
                }));
            } else if (action instanceof MemberAction.FenceAll fence) {
                LOG.warn("Member {}: fencing itself, dropping {}: {}", memberId(), fence.shards(), fence.reason());
                shards.fenceAll();
            }
        }
    }
}
