package io.shardline.runtime.coordinator;

import io.shardline.api.assignor.Assignor;
import io.shardline.coordinator.AuditEvent;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.CoordinatorResult;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.GroupDeletion;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.GroupConfigRefusedException;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.RevokeState;
import io.shardline.coordinator.protocol.LeaveResponse;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.metrics.CoordinatorHostMetrics;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.store.RecordCodec;
import io.shardline.runtime.store.StoreFencedException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hosts the pure {@link GroupCoordinator} on one Vert.x context of the leader worker, and answers
 * {@code NOT_COORDINATOR} everywhere else.
 *
 * <p>Every worker registers the event-bus endpoint {@link CoordinatorWire#address}; members send to the
 * endpoint of the worker their cluster view names as leader, or that a {@code NOT_COORDINATOR} answer named.
 * Who leads is the leader epoch in Redis, not the view ({@link LeaderSuccession}): a follower reads who holds it
 * every tick and claims when it is in line (the holder went silent, or it is on the large side of a split); a
 * leader keeps leading when the view names another worker, or hands over to it ({@link #yieldTo}); routes to
 * every other host are resolved when it enters the view ({@link EventBusRoutes}). Requests are handled one at a time, in
 * order: (1) the coordinator decides; (2) its records are appended to Redis under the leader epoch and
 * store revision, and its audit events to the group's audit stream (one Lua script; a deposed leader is refused,
 * so it stores neither; {@link io.shardline.runtime.store.RedisAuditLog}); (3) the owner key of every shard handed
 * to a member is written (docs/protocol.md, section 5); (4) only then is the answer sent. If (2) or (3) fails the answer
 * is dropped, this coordinator instance is discarded and, if this worker still leads, a new leader epoch
 * is claimed and the state rebuilt from Redis. If Redis reports a new {@code run_id} (it restarted) the
 * leader re-fences the same way before writing again.
 *
 * <p>The leader role ({@link LeaderRole}: follower, claiming, leader, deposed, resigned) is decided by the pure
 * {@link LeaderRoleMachine}; this verticle is the request dispatch and the driver that carries out the machine's
 * {@link LeaderAction}s (the Redis calls of {@link LeaderLog}, claims through {@link LeaderClaim}, the event-bus
 * requests, the timers) and tells it what came of them (docs/architecture.md, "The leader's role"). Both clocks are
 * injected ({@link CoordinatorHostSettings#clockMs}, {@link CoordinatorHostSettings#nanoClock}). Context-confined:
 * all state is touched only on this verticle's context.
 */
public final class CoordinatorVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorVerticle.class);

    private final String clusterName;
    private final String workerId;
    private final RedisClient redis;
    private final LeaderLog leaderLog;
    private final RecordCodec codec;
    private final ShardCommands shards;
    private final Function<String, Assignor> assignors;
    private final CoordinatorMetrics metrics;
    private final CoordinatorHostMetrics hostMetrics;
    private final AssignorTiming timing;
    private final LongSupplier nanoClock;
    private final LongSupplier clockMs;
    private final long tickMs;
    private final int heartbeatIntervalMs;
    private final int sessionTimeoutMs;
    /** The leader role: which role this host has, and what to do when something happens. */
    private final LeaderRoleMachine machine;

    private GroupCoordinator coordinator;
    private Future<?> queue = Future.succeededFuture();
    private final GroupCommit commits;
    private MessageConsumer<JsonObject> consumer;
    private long timer = -1;
    /** Whether a read of who leads is in flight ({@link #watch}). */
    private boolean watching;
    /** The event-bus routes to the other workers' hosts (created on start). */
    private EventBusRoutes routes;
    /** The graceful hand-over, both sides (created on start, on this context). */
    private LeaderHandOver handOver;
    /** Carries out the machine's claims (created on start, on this context). */
    private LeaderClaim claims;
    /** Tells a group's members to heartbeat now (created on start). */
    private RebalanceHints hints;

    /** Creates the host; deploy it once per worker. */
    public CoordinatorVerticle(CoordinatorHostSettings s) {
        this.clusterName = s.clusterName();
        this.workerId = s.workerId();
        this.redis = s.redis();
        this.leaderLog = new LeaderLog(s.redis(), s.log(), s.codec(), s.shards());
        this.codec = s.codec();
        this.shards = s.shards();
        this.assignors = s.assignors();
        this.metrics = s.metrics();
        this.hostMetrics = s.metrics() instanceof CoordinatorHostMetrics h ? h : CoordinatorHostMetrics.NOOP;
        this.nanoClock = s.nanoClock();
        this.timing = new AssignorTiming(metrics, hostMetrics, nanoClock);
        this.clockMs = s.clockMs();
        this.tickMs = s.tickMs();
        this.heartbeatIntervalMs = s.heartbeatIntervalMs();
        this.sessionTimeoutMs = s.sessionTimeoutMs();
        this.machine = new LeaderRoleMachine(s.workerId(), s.clockMs(),
                LeaderSuccession.silenceMs(s.tickMs(), s.heartbeatIntervalMs(), s.sessionTimeoutMs()));
        this.commits = new GroupCommit(machine::term, () -> machine.role() == LeaderRole.LEADER, this::write, e -> {
            LOG.error("Coordinator write failed", e);
            if (machine.role() == LeaderRole.LEADER) {
                writeFailed(e);
            }
        });
    }

    @Override
    public Future<?> start() {
        handOver = new LeaderHandOver(context, clusterName, workerId, clockMs, heartbeatIntervalMs, new HandOverHost());
        hints = new RebalanceHints(vertx, clusterName);
        routes = new EventBusRoutes(context, clusterName, workerId, Math.max(1_000, sessionTimeoutMs));
        consumer = vertx.eventBus().consumer(CoordinatorWire.address(clusterName, workerId), this::onMessage);
        timer = vertx.setPeriodic(tickMs, id -> enqueue(this::tick));
        claims = new LeaderClaim(vertx, workerId, leaderLog, machine, codec, assignors, timing, clockMs,
                new ClaimHost());
        claims.warmUp();
        return consumer.completion();
    }

    @Override
    public Future<?> stop() {
        vertx.cancelTimer(timer);
        return consumer.unregister();
    }

    /** Applies a new cluster view; callable from any thread. */
    public void onViewChange(LeaderView next) {
        context.runOnContext(v -> applyView(next));
    }

    /** The role (for tests and status), read on the context. */
    public Future<LeaderRole> role() {
        Promise<LeaderRole> p = Promise.promise();
        context.runOnContext(v -> p.complete(machine.role()));
        return p.future();
    }

    /** The leader epoch held (0 when not leader), read on the context. */
    public Future<Long> leaderEpoch() {
        Promise<Long> p = Promise.promise();
        context.runOnContext(v -> p.complete(machine.role() == LeaderRole.LEADER ? leaderLog.leaderEpoch() : 0L));
        return p.future();
    }

    /**
     * Hands leadership over before this worker stops (call it after the worker's own members left), as
     * {@link LeaderHandOver#begin} describes; this host then stays {@code RESIGNED}. Completes when that is done
     * (also when the successor could not be reached within {@code timeoutMs}: the cluster view then decides, as
     * after a crash). Any thread.
     */
    public Future<Void> handOver(long timeoutMs) {
        Promise<Void> done = Promise.promise();
        context.runOnContext(v -> {
            Set<String> members = machine.role() != LeaderRole.LEADER ? Set.of() : coordinator.groupIds().stream()
                    .flatMap(g -> coordinator.group(g).stream()).flatMap(g -> g.members().keySet().stream())
                    .collect(Collectors.toSet());
            handOver.begin(machine.view(), members, timeoutMs).onComplete(done);
        });
        return done.future();
    }

    /** A new cluster view: the role machine decides ({@link LeaderRoleMachine#viewChanged}). */
    private void applyView(LeaderView next) {
        handOver.viewChanged(next);
        routes.warm(next);
        carryOut(machine.viewChanged(next, handOver.stopping()));
    }

    /** Carries out the role machine's decisions: the only place they turn into Redis calls, requests and timers. */
    private void carryOut(List<LeaderAction> actions) {
        actions.forEach(this::carryOut);
    }

    private void carryOut(LeaderAction action) {
        if (action instanceof LeaderAction.Claim c) {
            enqueue(() -> claims.claim(c));
        } else if (action instanceof LeaderAction.RecordView r) {
            leaderLog.recordView(r.size()).onComplete(ar -> {
                if (ar.failed()) {
                    LOG.warn("Coordinator on {}: recording the cluster view failed: {}", workerId, ar.cause().getMessage());
                }
            });
        } else if (action instanceof LeaderAction.HandOver h) {
            yieldTo(h.successor());
        } else if (action instanceof LeaderAction.StepDown d) {
            if (d.wasLeader()) {
                hostMetrics.leadership(0);
            }
            coordinator = null;
        } else {
            throw new IllegalStateException("not carried out here: " + action);
        }
    }

    /**
     * Hands leadership over to the view's oldest worker as a stopping leader does ({@link CoordinatorWire#TAKE_OVER}:
     * it claims at once while this host still answers), so members see no gap; what then is the machine's
     * ({@link LeaderRoleMachine#handOverEnded}).
     */
    private void yieldTo(String successor) {
        vertx.eventBus().<JsonObject>request(CoordinatorWire.address(clusterName, successor),
                        new JsonObject().put(CoordinatorWire.OP, CoordinatorWire.TAKE_OVER).put("from", workerId),
                        new DeliveryOptions().setSendTimeout(Math.max(1, sessionTimeoutMs / 2)))
                .onComplete(ar -> context.runOnContext(v -> machine.handOverEnded(successor,
                        Optional.ofNullable(ar.cause())).ifPresent(this::carryOut)));
    }

    /**
     * A host that does not lead reads who holds the leader epoch every tick: to claim when it is in line (the holder
     * went silent: crashed, frozen, cut off from Redis) before Hazelcast has noticed, and to name the holder in its
     * {@code NOT_COORDINATOR} answers, so members reach the leader the others follow whatever their view says.
     */
    private Future<Void> watch() {
        if (watching || !machine.watches(handOver.stopping())) {
            return Future.succeededFuture();
        }
        watching = true;
        leaderLog.status().onComplete(ar -> context.runOnContext(v -> {
            watching = false;
            if (ar.failed()) {
                LOG.debug("Coordinator on {}: reading the leader status failed: {}", workerId, ar.cause().getMessage());
                return;
            }
            machine.watched(ar.result(), handOver.stopping()).ifPresent(this::carryOut);
        }));
        return Future.succeededFuture();
    }

    /** Feeds the group gauges (members, epochs, pending revocations) from the coordinator's state. */
    private void observeGroups() {
        if (coordinator != null) {
            hostMetrics.groups(coordinator);
        }
    }

    private void onMessage(Message<JsonObject> message) {
        if (CoordinatorWire.PING.equals(message.body().getString(CoordinatorWire.OP))) {
            message.reply(new JsonObject());
            return;
        }
        long arrivedNanos = nanoClock.getAsLong();
        enqueue(() -> handle(message, arrivedNanos));
    }

    private Future<Void> handle(Message<JsonObject> message, long arrivedNanos) {
        JsonObject body = message.body();
        String op = body.getString(CoordinatorWire.OP, "");
        if (CoordinatorWire.TAKE_OVER.equals(op)) {
            return handOver.takeOver(message);
        }
        if (machine.role() != LeaderRole.LEADER) {
            message.reply(notCoordinator(op, body));
            handOver.redirected(body.getString("memberId", ""));
            return Future.succeededFuture();
        }
        long now = clockMs.getAsLong();
        // The decision is taken now, in arrival order; the answer waits for the group commit that covers it
        // (commit). Returning at once lets the next request be decided while that commit is in flight.
        try {
            switch (op) {
                case CoordinatorWire.HEARTBEAT -> {
                    HeartbeatRequest request = CoordinatorWire.heartbeatRequest(body);
                    CoordinatorResult<HeartbeatResponse> result = coordinator.heartbeat(now, request);
                    boolean revoked = request.revoking().stream().anyMatch(r -> r.state() == RevokeState.REVOKED);
                    answerAfterCommit(message, op, body, result, () -> {
                        hostMetrics.heartbeatAnswered(request.groupId(), nanoClock.getAsLong() - arrivedNanos);
                        if (revoked) {
                            hints.publish(request.groupId(), request.memberId()); // its shards can move on now
                        }
                    }, () -> CoordinatorWire.toJson(result.response()));
                }
                case CoordinatorWire.LEAVE -> {
                    CoordinatorResult<LeaveResponse> result = coordinator.leave(now, CoordinatorWire.leaveRequest(body));
                    answerAfterCommit(message, op, body, result, () -> { },
                            () -> CoordinatorWire.toJson(result.response()));
                }
                case CoordinatorWire.CONFIGURE -> configure(message, body, now);
                case GroupAdminWire.LIST -> message.reply(GroupAdminWire.listAnswer(coordinator));
                case GroupAdminWire.DELETE -> {
                    CoordinatorResult<GroupDeletion> result = GroupAdminWire.delete(body, coordinator);
                    answerAfterCommit(message, op, body, result, this::observeGroups,
                            () -> GroupAdminWire.deleteAnswer(result.response()));
                }
                case GroupAdminWire.RESHARD -> {
                    CoordinatorResult<Boolean> result = GroupAdminWire.reshard(body, coordinator, now);
                    answerAfterCommit(message, op, body, result, () -> {
                        observeGroups();
                        if (result.response()) {
                            hints.publish(body.getString("groupId", ""), ""); // its members' new shards and revocations
                        }
                    }, () -> GroupAdminWire.reshardAnswer(result.response()));
                }
                case ReadModelWire.DESCRIBE -> message.reply(ReadModelWire.answer(body, coordinator,
                        machine.view() == null ? List.of() : machine.view().members().stream().map(m -> m.workerId()).toList()));
                default -> message.fail(ErrorCode.INVALID_REQUEST.code(), "unknown operation '" + op + "'");
            }
        } catch (RuntimeException e) {
            message.fail(ErrorCode.INVALID_REQUEST.code(), "invalid " + op + " request: " + e.getMessage());
        }
        return Future.succeededFuture();
    }

    /** Applies a member's group configuration, or answers why it is refused ({@code CONFIG_REFUSED}). */
    private void configure(Message<JsonObject> message, JsonObject body, long now) {
        CoordinatorResult<Void> result;
        try {
            result = coordinator.configureGroup(now, CoordinatorWire.groupConfig(body), ChangeReason.CONFIG_CHANGED);
        } catch (GroupConfigRefusedException e) {
            LOG.warn("Coordinator on {}: configuration of group {} refused: {}", workerId, body.getString("groupId"),
                    e.getMessage());
            message.reply(new JsonObject().put("error", ErrorCode.CONFIG_REFUSED.code())
                    .put("errorMessage", e.getMessage()));
            return;
        }
        answerAfterCommit(message, CoordinatorWire.CONFIGURE, body, result, this::observeGroups,
                () -> new JsonObject().put("error", ErrorCode.NONE.code()));
    }

    private void answerAfterCommit(Message<JsonObject> message, String op, JsonObject body,
                                   CoordinatorResult<?> result, Runnable onCommitted, Supplier<JsonObject> answer) {
        commits.commit(result.records(), result.events()).onComplete(ar -> {
            if (ar.succeeded()) {
                onCommitted.run();
                message.reply(answer.get());
                // Operators (and the failover tests) read "serving again" from this line.
                machine.firstAnswer().ifPresent(ms -> LOG.info("Coordinator on {}: first answer as leader (leader epoch "
                        + "{}), {} ms after taking the epoch", workerId, leaderLog.leaderEpoch(), ms));
            } else {
                replyNotCoordinator(message, op, body);
            }
        });
    }

    private Future<Void> tick() {
        if (machine.view() != null) {
            routes.warm(machine.view()); // routes whose warm-up failed (a worker still starting) are tried again
        }
        if (machine.role() != LeaderRole.LEADER) {
            return watch();
        }
        return redis.refreshServerInfo().compose(info -> {
            if (machine.role() != LeaderRole.LEADER) {
                return Future.succeededFuture();
            }
            if (leaderLog.identityChanged(info)) {
                writeFailed(new IllegalStateException("Redis restarted (run_id " + leaderLog.fencedRunId()
                        + " -> " + info.runId() + "); re-fencing before writing again"));
                return Future.succeededFuture();
            }
            CoordinatorResult<Void> result = coordinator.tick(clockMs.getAsLong());
            // Also with no records: the guarded (empty) append re-confirms the leader epoch every tick.
            commits.commit(result.records(), result.events()).onSuccess(v -> observeGroups());
            return Future.<Void>succeededFuture();
        }).otherwiseEmpty().mapEmpty();
    }

    /** The guarded write of a group commit ({@link LeaderLog#write}); a refused or failed one discards this term. */
    private Future<Void> write(List<CoordinatorRecord> records, List<AuditEvent> events) {
        if (leaderLog.identityChanged(redis.serverInfo())) {
            IllegalStateException e = new IllegalStateException("Redis run_id changed; re-fencing");
            writeFailed(e);
            return Future.failedFuture(e);
        }
        int myTerm = machine.term();
        GroupCoordinator current = coordinator;
        return leaderLog.write(records, events, () -> current.snapshot(), () -> myTerm == machine.term())
                .onFailure(e -> {
                    if (machine.leads(myTerm)) {
                        writeFailed(e);
                    }
                });
    }

    /** A write of the leader failed or was refused: the machine decides ({@link LeaderRoleMachine#writeFailed}). */
    private void writeFailed(Throwable e) {
        boolean stale = e instanceof StoreFencedException f && f.kind() == StoreFencedException.Kind.STALE_LEADER_EPOCH;
        carryOut(machine.writeFailed(stale, e.getMessage(), handOver.stopping()));
    }

    private Future<Void> replyNotCoordinator(Message<JsonObject> message, String op, JsonObject body) {
        message.reply(notCoordinator(op, body));
        return Future.succeededFuture();
    }

    private JsonObject notCoordinator(String op, JsonObject body) {
        LeaderView view = machine.view();
        String leader = view == null ? "unknown" : view.leader().workerId();
        String successor = handOver.successor().orElse(null);
        String holder = machine.liveHolder().orElse(null);
        String hint = successor != null ? successor : holder != null ? holder
                : view != null && !view.isLeader() ? leader : null;
        String text = "worker " + workerId + " is not the coordinator (role " + machine.role() + "); the cluster leader is " + leader
                + (holder != null ? "; worker " + holder + " holds the leader epoch" : "")
                + (successor != null ? "; leadership was handed over to " + successor : "");
        long hintSilentMs = hint == null || hint.equals(successor) ? -1 : machine.silenceOf(hint);
        return CoordinatorWire.notCoordinator(op, body, text, hint, hintSilentMs, heartbeatIntervalMs, sessionTimeoutMs);
    }

    /** What {@link LeaderHandOver} sees and does of this host. */
    private final class HandOverHost implements LeaderHandOver.Host {

        @Override
        public LeaderRole role() {
            return machine.role();
        }

        @Override
        public long leaderEpoch() {
            return leaderLog.leaderEpoch();
        }

        @Override
        public void resign(String why) {
            carryOut(machine.resign(why));
        }

        @Override
        public Future<Void> claimHandedOver(String from) {
            return claims.claim(machine.handedOver(from));
        }
    }

    /** What {@link LeaderClaim} sees and does of this host. */
    private final class ClaimHost implements LeaderClaim.Host {

        @Override
        public Future<Void> enqueue(Supplier<Future<Void>> op) {
            return CoordinatorVerticle.this.enqueue(op);
        }

        @Override
        public void led(GroupCoordinator fresh) {
            coordinator = fresh;
            hostMetrics.leadership(leaderLog.leaderEpoch());
            observeGroups();
        }
    }

    private Future<Void> enqueue(Supplier<Future<Void>> op) {
        Future<Void> next = queue.transform(ignored -> {
            try {
                return op.get();
            } catch (RuntimeException e) {
                LOG.error("Coordinator operation failed", e);
                return Future.<Void>succeededFuture();
            }
        });
        queue = next.otherwiseEmpty();
        return next;
    }

}
