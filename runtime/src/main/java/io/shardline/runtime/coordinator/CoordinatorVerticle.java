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
import io.shardline.coordinator.protocol.LeaveResponse;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.metrics.CoordinatorHostMetrics;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.store.GroupLogState;
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
 * to a member is written (contract 5); (4) only then is the answer sent. If (2) or (3) fails the answer
 * is dropped, this coordinator instance is discarded and, if this worker still leads, a new leader epoch
 * is claimed and the state rebuilt from Redis. If Redis reports a new {@code run_id} (it restarted) the
 * leader re-fences the same way before writing again.
 *
 * <p>Lifecycle: {@code FOLLOWER -> CLAIMING -> LEADER}, back to {@code FOLLOWER} when a claim is refused or
 * leadership was handed to the view's oldest worker, {@code DEPOSED} when Redis holds a newer leader epoch, {@code RESIGNED} (terminal) once the worker
 * stops ({@link #handOver}, the graceful hand-over of {@link LeaderHandOver}). Context-confined: all state is
 * touched only on this verticle's context.
 */
public final class CoordinatorVerticle extends VerticleBase {

    /** The host's role. */
    public enum Role { FOLLOWER, CLAIMING, LEADER, DEPOSED, RESIGNED }

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
    private final LongSupplier nanoClock = System::nanoTime;
    private final LongSupplier clockMs;
    private final long tickMs;
    private final int heartbeatIntervalMs;
    private final int sessionTimeoutMs;
    /** Who leads as last read from Redis, and when this host is in line to claim. */
    private final LeaderSuccession succession;

    private Role role = Role.FOLLOWER;
    private LeaderView view;
    private GroupCoordinator coordinator;
    private int term;
    private Future<?> queue = Future.succeededFuture();
    private final GroupCommit commits = new GroupCommit(() -> term, () -> role == Role.LEADER, this::write, e -> {
        LOG.error("Coordinator write failed", e);
        if (role == Role.LEADER) {
            discardAndReclaim(e);
        }
    });
    private long leaderSinceMs;
    private boolean served;
    private MessageConsumer<JsonObject> consumer;
    private long timer = -1;
    /** Whether a read of who leads is in flight ({@link #watch}). */
    private boolean watching;
    /** Whether a hand-over to the view's oldest worker is in flight ({@link #yieldTo}). */
    private boolean yielding;
    /** The event-bus routes to the other workers' hosts (created on start). */
    private EventBusRoutes routes;
    /** The graceful hand-over, both sides (created on start, on this context). */
    private LeaderHandOver handOver;

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
        this.timing = new AssignorTiming(metrics, hostMetrics, nanoClock);
        this.clockMs = s.clockMs();
        this.tickMs = s.tickMs();
        this.heartbeatIntervalMs = s.heartbeatIntervalMs();
        this.sessionTimeoutMs = s.sessionTimeoutMs();
        this.succession = new LeaderSuccession(s.workerId(), s.clockMs(),
                LeaderSuccession.silenceMs(s.tickMs(), s.heartbeatIntervalMs(), s.sessionTimeoutMs()));
    }

    @Override
    public Future<?> start() {
        handOver = new LeaderHandOver(context, clusterName, workerId, clockMs, heartbeatIntervalMs, new HandOverHost());
        routes = new EventBusRoutes(context, clusterName, workerId, Math.max(1_000, sessionTimeoutMs));
        consumer = vertx.eventBus().consumer(CoordinatorWire.address(clusterName, workerId), this::onMessage);
        timer = vertx.setPeriodic(tickMs, id -> enqueue(this::tick));
        warmUp();
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
    public Future<Role> role() {
        Promise<Role> p = Promise.promise();
        context.runOnContext(v -> p.complete(role));
        return p.future();
    }

    /** The leader epoch held (0 when not leader), read on the context. */
    public Future<Long> leaderEpoch() {
        Promise<Long> p = Promise.promise();
        context.runOnContext(v -> p.complete(role == Role.LEADER ? leaderLog.leaderEpoch() : 0L));
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
            Set<String> members = role != Role.LEADER ? Set.of() : coordinator.groupIds().stream()
                    .flatMap(g -> coordinator.group(g).stream()).flatMap(g -> g.members().keySet().stream())
                    .collect(Collectors.toSet());
            handOver.begin(view, members, timeoutMs).onComplete(done);
        });
        return done.future();
    }

    /**
     * A new cluster view. Leadership is the leader epoch in Redis, not the view: a leader keeps leading when the view
     * names another worker (it records how many workers it sees, so that a larger side of a split may depose it), and
     * a follower claims only when it is in line ({@link LeaderSuccession#inLine}).
     */
    private void applyView(LeaderView next) {
        view = next;
        handOver.viewChanged(next);
        routes.warm(next);
        if (role == Role.LEADER) {
            leaderLog.recordView(next.size()).onComplete(ar -> {
                if (ar.failed()) {
                    LOG.warn("Coordinator on {}: recording the cluster view failed: {}", workerId, ar.cause().getMessage());
                }
            });
            String oldest = next.leader().workerId();
            if (!next.isLeader() && succession.mayHandTo(oldest)) {
                yieldTo(oldest);
            }
        } else if ((role == Role.FOLLOWER || role == Role.DEPOSED) && succession.inLine(next)) {
            claim(succession.reason(next));
        }
    }

    /**
     * The view names another worker as the oldest (it is not the worker this one took the epoch from): hand
     * leadership over to it as a stopping leader does ({@link CoordinatorWire#TAKE_OVER}: it claims at once while
     * this host still answers), so members see no gap; if it does not take it, stop leading and let it claim when
     * this host's silence makes it next in line.
     */
    private void yieldTo(String successor) {
        if (yielding) {
            return;
        }
        yielding = true;
        LOG.info("Coordinator on {}: worker {} is the oldest cluster member now; handing leadership (epoch {}) over to it",
                workerId, successor, leaderLog.leaderEpoch());
        vertx.eventBus().<JsonObject>request(CoordinatorWire.address(clusterName, successor),
                        new JsonObject().put(CoordinatorWire.OP, CoordinatorWire.TAKE_OVER).put("from", workerId),
                        new DeliveryOptions().setSendTimeout(Math.max(1, sessionTimeoutMs / 2)))
                .onComplete(ar -> context.runOnContext(v -> {
                    yielding = false;
                    if (role != Role.LEADER && role != Role.DEPOSED) {
                        return;
                    }
                    if (ar.succeeded()) {
                        discard(Role.FOLLOWER, "handed leadership over to " + successor + ", the oldest cluster member");
                    } else if (role == Role.LEADER && view != null && successor.equals(view.leader().workerId())) {
                        discard(Role.FOLLOWER, "worker " + successor + " is the oldest cluster member now (it did not "
                                + "take a hand-over: " + ar.cause().getMessage() + ")");
                    }
                }));
    }

    /**
     * A host that does not lead reads who holds the leader epoch every tick: to claim when it is in line (the holder
     * went silent: crashed, frozen, cut off from Redis) before Hazelcast has noticed, and to name the holder in its
     * {@code NOT_COORDINATOR} answers, so members reach the leader the others follow whatever their view says.
     */
    private Future<Void> watch() {
        if (watching || handOver.stopping() || role == Role.CLAIMING) {
            return Future.succeededFuture();
        }
        watching = true;
        leaderLog.status().onComplete(ar -> context.runOnContext(v -> {
            watching = false;
            if (ar.failed()) {
                LOG.debug("Coordinator on {}: reading the leader status failed: {}", workerId, ar.cause().getMessage());
                return;
            }
            succession.observed(ar.result());
            if ((role == Role.FOLLOWER || role == Role.DEPOSED) && view != null && !handOver.stopping()
                    && succession.inLine(view)) {
                claim(succession.reason(view));
            }
        }));
        return Future.succeededFuture();
    }

    /**
     * Loads and replays the group log once, off the event loop, feeding no metrics, so that a later claim replays
     * warm code (a worker's first replay can take a second where a warm one takes tens of milliseconds).
     */
    private void warmUp() {
        long started = clockMs.getAsLong();
        leaderLog.load().compose(state -> replay(state, false).map(c -> state.records().size()))
                .onComplete(ar -> LOG.info("Coordinator on {}: warm-up replay {} in {} ms", workerId,
                        ar.succeeded() ? "of " + ar.result() + " records" : "failed (" + ar.cause().getMessage() + ")",
                        clockMs.getAsLong() - started));
    }

    private void claim(String why) {
        if (handOver.stopping()) {
            transitionTo(Role.RESIGNED, "not claiming (" + why + "): this worker is stopping");
            return;
        }
        transitionTo(Role.CLAIMING, why);
        int myTerm = ++term;
        succession.claiming(Optional.empty());
        enqueue(() -> attemptClaim(myTerm, 0, succession.silenceMs()));
    }

    /** One claim attempt; {@code minSilenceMs} -1 for a hand-over (unconditional), as {@link LeaderLog#claim}. */
    private Future<Void> attemptClaim(int myTerm, int attempt, long minSilenceMs) {
        if (myTerm != term || role != Role.CLAIMING) {
            return Future.succeededFuture();
        }
        long started = clockMs.getAsLong();
        // Replay what the claim will expect first, then claim: the new holder is silent (to the others' watch)
        // only for the claim's round trip, not for a replay, and answers right after. A log that changed in
        // between (its revision moved) is replayed again.
        return leaderLog.loadForClaim().compose(seen -> replay(seen, true).compose(prepared ->
                leaderLog.claim(workerId, seen, view == null ? 1 : view.size(), minSilenceMs).compose(claimed -> {
                    long claimedAt = clockMs.getAsLong();
                    Future<GroupCoordinator> fresh = claimed.state().revision() == seen.revision()
                            ? Future.succeededFuture(prepared) : replay(claimed.state(), true);
                    return fresh.compose(c -> (claimed.lastWriteAgoMs() < 0
                            ? leaderLog.restoreOwnerKeys(c) : Future.<Void>succeededFuture()).map(v -> {
                                becomeLeader(myTerm, c, claimed, started, claimedAt);
                                return (Void) null;
                            }));
                })))
                .recover(e -> {
                    if (e instanceof ClaimRefusedException refused) {
                        if (myTerm == term && role == Role.CLAIMING) {
                            succession.observed(refused.holder);
                            term++;
                            transitionTo(Role.FOLLOWER, "claim refused: " + refused.getMessage()
                                    + "; following it");
                        }
                        return Future.succeededFuture();
                    }
                    LOG.warn("Claiming the leader epoch failed (attempt {}): {}", attempt + 1, e.getMessage());
                    vertx.setTimer(Math.min(2_000, 100L << Math.min(attempt, 4)), id ->
                            enqueue(() -> attemptClaim(myTerm, attempt + 1, minSilenceMs)));
                    return Future.succeededFuture();
                });
    }

    /**
     * Rebuilds a coordinator from the group log on a worker thread: a long log, or code not yet warm (a worker's
     * first time as leader), must not stall this event loop, which the worker's members may share. The coordinator
     * is pure and used only on this context once the future completed. A warm-up replay ({@code live} false) feeds
     * no metrics.
     */
    private Future<GroupCoordinator> replay(GroupLogState state, boolean live) {
        return vertx.executeBlocking(() -> {
            GroupCoordinator fresh = live ? new GroupCoordinator(timing.wrap(assignors), timing)
                    : new GroupCoordinator(assignors, CoordinatorMetrics.NOOP);
            for (String json : state.records()) {
                fresh.replay(codec.decode(json));
            }
            return fresh;
        }, false);
    }

    /**
     * Serves as leader with the replayed coordinator. Members whose lease the predecessor renewed keep only what
     * can remain of it (GroupCoordinator#inheritedLeaseMs, from {@link LeaderLog.Claimed#lastWriteAgoMs}), so the
     * members of a killed leader's worker expire about one session timeout after their last answer, not after the
     * claim; with the last write unknown, a whole session timeout from now.
     */
    private void becomeLeader(int myTerm, GroupCoordinator fresh, LeaderLog.Claimed claimed, long startedMs,
                              long claimedAt) {
        if (myTerm != term || role != Role.CLAIMING) {
            LOG.info("Coordinator on {}: took leader epoch {} but stopped claiming meanwhile (role {}); not leading",
                    workerId, claimed.state().leaderEpoch(), role);
            return;
        }
        long lastWriteAgoMs = claimed.lastWriteAgoMs();
        long now = clockMs.getAsLong();
        long quietMs = lastWriteAgoMs < 0 ? 0 : lastWriteAgoMs + (now - claimedAt);
        fresh.activate(now, quietMs);
        coordinator = fresh;
        succession.led();
        leaderLog.lead(claimed);
        leaderSinceMs = now;
        served = false;
        transitionTo(Role.LEADER, "took leader epoch " + leaderLog.leaderEpoch() + " at revision "
                + leaderLog.revision() + ", replayed " + leaderLog.records() + " records, groups " + fresh.groupIds()
                + " in " + (now - startedMs) + " ms (replay " + (now - claimedAt) + " ms); the last write was " + (lastWriteAgoMs < 0 ? "unknown"
                : quietMs + " ms ago") + ", so inherited leases run at most "
                + inheritedLeaseMs(fresh, quietMs) + " more");
        hostMetrics.leadership(leaderLog.leaderEpoch());
        observeGroups();
    }

    private static String inheritedLeaseMs(GroupCoordinator c, long quietMs) {
        return c.groupIds().stream().map(g -> c.group(g).orElseThrow().config().sessionTimeoutMs())
                .map(session -> Long.toString(GroupCoordinator.inheritedLeaseMs(session, quietMs)))
                .distinct().collect(Collectors.joining("/", "", " ms"));
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
        if (role != Role.LEADER) {
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
                    answerAfterCommit(message, op, body, result, () -> hostMetrics.heartbeatAnswered(
                            request.groupId(), nanoClock.getAsLong() - arrivedNanos),
                            () -> CoordinatorWire.toJson(result.response()));
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
                    answerAfterCommit(message, op, body, result, this::observeGroups,
                            () -> GroupAdminWire.reshardAnswer(result.response()));
                }
                case ReadModelWire.DESCRIBE -> message.reply(ReadModelWire.answer(body, coordinator,
                        view == null ? List.of() : view.members().stream().map(m -> m.workerId()).toList()));
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
                if (!served) {
                    served = true;
                    // Operators (and the failover tests) read "serving again" from this line.
                    LOG.info("Coordinator on {}: first answer as leader (leader epoch {}), {} ms after taking the epoch",
                            workerId, leaderLog.leaderEpoch(), clockMs.getAsLong() - leaderSinceMs);
                }
            } else {
                replyNotCoordinator(message, op, body);
            }
        });
    }

    private Future<Void> tick() {
        if (view != null) {
            routes.warm(view); // routes whose warm-up failed (a worker still starting) are tried again
        }
        if (role != Role.LEADER) {
            return watch();
        }
        return redis.refreshServerInfo().compose(info -> {
            if (role != Role.LEADER) {
                return Future.succeededFuture();
            }
            if (leaderLog.identityChanged(info)) {
                discardAndReclaim(new IllegalStateException("Redis restarted (run_id " + leaderLog.fencedRunId()
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
            discardAndReclaim(e);
            return Future.failedFuture(e);
        }
        int myTerm = term;
        GroupCoordinator current = coordinator;
        return leaderLog.write(records, events, () -> current.snapshot(), () -> myTerm == term)
                .onFailure(e -> {
                    if (myTerm == term && role == Role.LEADER) {
                        discardAndReclaim(e);
                    }
                });
    }

    private void discardAndReclaim(Throwable e) {
        if (e instanceof StoreFencedException f && f.kind() == StoreFencedException.Kind.STALE_LEADER_EPOCH) {
            // Another worker took the epoch: follow it. The watch (every tick) claims again only when this worker is
            // in line: the new holder went silent, or sees fewer workers than this one (a split).
            succession.forget();
            discard(Role.DEPOSED, f.getMessage());
            return;
        }
        discard(Role.FOLLOWER, "write failed: " + e.getMessage());
        // The epoch is still this worker's as far as it knows; the claim script lets its holder take the next one.
        claim("rebuilding from Redis after a failed write");
    }

    private void discard(Role next, String why) {
        if (role == Role.LEADER) {
            hostMetrics.leadership(0);
        }
        coordinator = null;
        term++;
        transitionTo(next, why);
    }

    private Future<Void> replyNotCoordinator(Message<JsonObject> message, String op, JsonObject body) {
        message.reply(notCoordinator(op, body));
        return Future.succeededFuture();
    }

    private JsonObject notCoordinator(String op, JsonObject body) {
        String leader = view == null ? "unknown" : view.leader().workerId();
        String successor = handOver.successor().orElse(null);
        String holder = succession.liveHolder().orElse(null);
        String hint = successor != null ? successor : holder != null ? holder
                : view != null && !view.isLeader() ? leader : null;
        String text = "worker " + workerId + " is not the coordinator (role " + role + "); the cluster leader is " + leader
                + (holder != null ? "; worker " + holder + " holds the leader epoch" : "")
                + (successor != null ? "; leadership was handed over to " + successor : "");
        return CoordinatorWire.notCoordinator(op, body, text, hint, heartbeatIntervalMs, sessionTimeoutMs);
    }

    /** What {@link LeaderHandOver} sees and does of this host. */
    private final class HandOverHost implements LeaderHandOver.Host {

        @Override
        public Role role() {
            return role;
        }

        @Override
        public long leaderEpoch() {
            return leaderLog.leaderEpoch();
        }

        @Override
        public void resign(String why) {
            discard(Role.RESIGNED, why);
        }

        /**
         * Claims at once, after one load and replay of the log while the old leader still answers (warming up the
         * code this worker may never have run), so that the window between the claim (which fences the old leader)
         * and answering as leader is one claim and one warm replay.
         */
        @Override
        public Future<Void> claimHandedOver(String from) {
            transitionTo(Role.CLAIMING, "worker " + from + " hands leadership over");
            int myTerm = ++term;
            succession.claiming(Optional.of(from));
            long started = clockMs.getAsLong();
            return leaderLog.load().compose(state -> replay(state, false).map(warm -> {
                LOG.info("Coordinator on {}: prepared to take over from {}: replayed {} records in {} ms", workerId,
                        from, state.records().size(), clockMs.getAsLong() - started);
                return (Void) null;
            })).recover(e -> {
                LOG.warn("Coordinator on {}: preparing the take-over failed, claiming anyway: {}", workerId,
                        e.getMessage());
                return Future.succeededFuture();
            }).compose(v -> attemptClaim(myTerm, 0, -1));
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

    private void transitionTo(Role next, String reason) {
        if (next != role) {
            LOG.info("Coordinator on {}: {} -> {} (leader epoch {}): {}", workerId, role, next, leaderLog.leaderEpoch(),
                    reason);
        }
        role = next;
    }
}
