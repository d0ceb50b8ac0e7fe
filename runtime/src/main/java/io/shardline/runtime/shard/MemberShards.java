package io.shardline.runtime.shard;

import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.runtime.plugin.HandlerPlugin;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shards one logical member owns, and the poller that serves them (contract 6: the member's
 * heartbeat loop calls {@link #acquire}, {@link #release}, {@link #fenceAll}; REST calls pause/resume).
 *
 * <p>Multiplexing (seed 004): the member serves its shards over {@code max.concurrency} local workers.
 * A shard with work waits in one FIFO ready queue; a free worker takes the head and runs one step for it
 * (a fenced read, the handler call for the batch, the fenced ack), then the shard goes to the tail. So a
 * shard has at most one read loop and one batch in flight, its records are handled in entry-id order, and
 * shards with data are served round-robin: a backlog on one shard delays the others by at most one batch
 * per worker. A shard whose read comes back empty waits on the member's single wake-up connection
 * ({@link WakeUpLoop}); a shard retrying a failed batch waits on a timer without holding a worker.
 *
 * <p>Acquiring a shard first sweeps every pending entry of the group (previous owners') into this
 * member's PEL, replays that PEL in id order, and only then reads new entries. Every read and ack is
 * fenced in Redis by owner and epoch; a refused one ({@code FENCED}) stops the shard here at once. Redis
 * errors (timeouts, restarts, a lost group or function library) are retried with backoff, forever and
 * logged, never silently.
 *
 * <p>Thread-safety: all state lives on one Vert.x context; public methods may be called from any thread
 * and return futures completed on that context. Handler code runs on the member's worker pool.
 *
 * <p>Size: one state machine on one context (scheduling, the per-shard steps and the terminal
 * transitions share the ready queue, the slot count and the shard map), kept in one file on purpose so
 * its single-threaded invariants can be read in one place; the pure parts live beside it
 * ({@link BatchRun}, {@link ShardPhase}, {@link ConsumerSettings}, {@link WakeUpLoop}, {@link HandlerInvoker}).
 */
public final class MemberShards {

    /** Notifications to the member's owner (the heartbeat loop). Called on the member's context. */
    public interface Events {
        /** The shard was lost: Redis records another owner or epoch. The member should report it gone. */
        default void fenced(ShardId shard, long epoch, String reason) {
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(MemberShards.class);

    private enum Next { AGAIN, IDLE, WAIT, STOP }

    private final Vertx vertx;
    private final Context context;
    private final HandlerContext handlerContext;
    private final ConsumerSettings settings;
    private final ShardCommands commands;
    private final HandlerPlugin handler;
    private final WorkerExecutor executor;
    private final HandlerInvoker invoker;
    private final DeadLetterWriter deadLetters;
    private final WakeUpLoop wakeUp;
    private final Events events;
    private final ConsumptionMetrics metrics;
    private final LongSupplier nanoClock;
    private final Map<ShardId, OwnedShard> shards = new TreeMap<>();
    private final Map<ShardId, ShardPhase> view = new ConcurrentHashMap<>();
    private final ArrayDeque<OwnedShard> ready = new ArrayDeque<>();
    private int busy;
    private boolean memberPaused;
    private boolean closed;

    /**
     * @param redis pooled commands and the wake-up connection
     * @param handler this member's handler instance
     * @param handlerContext listener, member id, group, handler config and metrics
     * @param clockMs wall clock for dead-letter timestamps; {@code nanoClock} for durations
     */
    public MemberShards(Vertx vertx, ShardRedis redis, HandlerPlugin handler, HandlerContext handlerContext,
                        ConsumerSettings settings, Events events, ConsumptionMetrics metrics,
                        LongSupplier clockMs, LongSupplier nanoClock) {
        this.vertx = vertx;
        this.context = vertx.getOrCreateContext();
        this.handlerContext = handlerContext;
        this.settings = settings;
        this.commands = new ShardCommands(redis);
        this.handler = handler;
        this.executor = vertx.createSharedWorkerExecutor("shardline-handler-" + handlerContext.memberId(),
                settings.maxConcurrency() * 2, 365, TimeUnit.DAYS);
        this.invoker = new HandlerInvoker(handler, executor, settings.handlerTimeoutMs());
        this.deadLetters = new DeadLetterWriter(commands, settings.deadLetterStream(), clockMs);
        this.wakeUp = new WakeUpLoop(redis, context, settings.wakeUpBlockMs(), this::woken);
        this.events = events;
        this.metrics = metrics;
        this.nanoClock = nanoClock;
    }

    /** The member id. */
    public String memberId() {
        return handlerContext.memberId();
    }

    /** Starts the handler ({@code start(context)} on a worker thread). */
    public Future<Void> start() {
        return invoker.run(() -> {
            handler.start(handlerContext);
            return null;
        });
    }

    /**
     * Takes the shard under {@code ownerEpoch} (the epoch the coordinator wrote to its owner key): calls
     * {@code onAssigned}, takes over pending entries, replays them, then reads new ones. Acquiring an
     * owned shard again under the same epoch does nothing.
     */
    public Future<Void> acquire(ShardId shard, long ownerEpoch) {
        return onContext(() -> {
            OwnedShard existing = shards.get(shard);
            if (existing != null && existing.phase().active()) {
                if (existing.ownerEpoch() == ownerEpoch) {
                    return Future.succeededFuture();
                }
                return Future.failedFuture(new IllegalStateException("shard " + shard + " is still owned under epoch "
                        + existing.ownerEpoch() + "; release it before acquiring it under epoch " + ownerEpoch));
            }
            OwnedShard s = new OwnedShard(shard, ownerEpoch, handlerContext);
            shards.put(shard, s);
            view.put(shard, s.phase());
            s.stepping = true; // not schedulable until onAssigned returned
            return invoker.run(() -> {
                handler.onAssigned(s);
                return null;
            }).recover(e -> {
                LOG.warn("member {}: {}.onAssigned({}) threw; continuing", memberId(), handler, shard, e);
                return Future.succeededFuture();
            }).andThen(ar -> context.runOnContext(v -> {
                s.stepping = false;
                if (s.phase() == ShardPhase.RELEASING) {
                    maybeFinishRelease(s);
                }
                schedule(s);
            }));
        });
    }

    /**
     * Gives the shard up: no more reads; the batch in flight is finished (or abandoned, per
     * {@link ConsumerSettings#releaseMode()}); {@code onRevoked} is called; then the future completes and
     * the member may report the shard REVOKED. Releasing a shard not owned completes at once.
     */
    public Future<Void> release(ShardId shard) {
        return onContext(() -> {
            OwnedShard s = shards.get(shard);
            if (s == null || !s.phase().active()) {
                return Future.succeededFuture();
            }
            if (s.phase() == ShardPhase.RELEASING) {
                return s.released.future();
            }
            transition(s, ShardPhase.RELEASING, "released by the member");
            s.released = Promise.promise();
            ready.remove(s);
            s.queued = false;
            unidle(s);
            if (!maybeFinishRelease(s) && settings.releaseMode() == ConsumerSettings.ReleaseMode.FINISH) {
                schedule(s); // finish the batch in flight (a no-op while a step or a retry timer is pending)
            }
            return s.released.future();
        });
    }

    /** Self-fencing: stops every shard at once; nothing more is read or acknowledged. */
    public Future<Void> fenceAll() {
        return onContext(() -> {
            List<Future<Void>> revoked = new ArrayList<>();
            for (OwnedShard s : new ArrayList<>(shards.values())) {
                revoked.add(fence(s, "member fenced itself"));
            }
            return Future.join(revoked).mapEmpty();
        });
    }

    /** Stops reading one shard (ownership and heartbeats go on); the batch in flight finishes. */
    public Future<Void> pause(ShardId shard) {
        return onContext(() -> {
            OwnedShard s = shards.get(shard);
            if (s != null) {
                s.paused = true;
                ready.remove(s);
                s.queued = false;
                unidle(s);
            }
            return Future.succeededFuture();
        });
    }

    /** Resumes a paused shard. */
    public Future<Void> resume(ShardId shard) {
        return onContext(() -> {
            OwnedShard s = shards.get(shard);
            if (s != null && s.paused) {
                s.paused = false;
                schedule(s);
            }
            return Future.succeededFuture();
        });
    }

    /** Stops reading every shard of this member (listener-level pause). */
    public Future<Void> pauseAll() {
        return onContext(() -> {
            memberPaused = true;
            ready.clear();
            for (OwnedShard s : shards.values()) {
                s.queued = false;
                unidle(s);
            }
            return Future.succeededFuture();
        });
    }

    /** Resumes every shard not paused on its own. */
    public Future<Void> resumeAll() {
        return onContext(() -> {
            memberPaused = false;
            shards.values().forEach(this::schedule);
            return Future.succeededFuture();
        });
    }

    /** Releases every shard, stops the handler and closes the member's connections and workers. */
    public Future<Void> close() {
        return onContext(() -> {
            List<Future<Void>> releases = new ArrayList<>();
            for (ShardId shard : new ArrayList<>(shards.keySet())) {
                releases.add(release(shard));
            }
            return Future.join(releases).<Void>mapEmpty()
                    .compose(v -> invoker.run(() -> {
                        handler.stop();
                        return null;
                    }))
                    .recover(e -> {
                        LOG.warn("member {}: {}.stop() threw", memberId(), handler, e);
                        return Future.succeededFuture();
                    })
                    .eventually(() -> {
                        closed = true;
                        return wakeUp.close();
                    })
                    .eventually(executor::close);
        });
    }

    /** The shards owned now (not yet released or fenced), in order. Any thread. */
    public Set<ShardId> ownedShards() {
        return new TreeSet<>(view.keySet());
    }

    /** The phase of an owned shard. Any thread. */
    public Optional<ShardPhase> phase(ShardId shard) {
        return Optional.ofNullable(view.get(shard));
    }

    // ---- scheduling (member context only) ----

    private boolean runnable(OwnedShard s) {
        if (closed && s.phase() != ShardPhase.RELEASING) {
            return false;
        }
        return switch (s.phase()) {
            case TAKING_OVER, REPLAYING, READING -> !s.paused && !memberPaused;
            case RELEASING -> settings.releaseMode() == ConsumerSettings.ReleaseMode.FINISH
                    && (s.batch != null && s.batch.started() || !s.unacked.isEmpty());
            default -> false;
        };
    }

    private void schedule(OwnedShard s) {
        if (s.queued || s.stepping || s.idle || s.timerId >= 0 || !runnable(s)) {
            return;
        }
        s.queued = true;
        ready.addLast(s);
        pump();
    }

    private void pump() {
        while (busy < settings.maxConcurrency() && !ready.isEmpty()) {
            OwnedShard s = ready.pollFirst();
            s.queued = false;
            if (!runnable(s)) {
                continue;
            }
            busy++;
            s.stepping = true;
            step(s);
        }
    }

    private void finish(OwnedShard s, Next next, long delayMs) {
        busy--;
        s.stepping = false;
        if (s.phase() == ShardPhase.RELEASING) {
            maybeFinishRelease(s);
        }
        if (s.phase().active()) {
            switch (next) {
                case AGAIN -> schedule(s);
                case IDLE -> {
                    if (runnable(s) && s.phase() == ShardPhase.READING) {
                        s.idle = true;
                        wakeUp.add(s.shard(), s.wakeId);
                    }
                }
                case WAIT -> s.timerId = vertx.setTimer(Math.max(1, delayMs), id -> {
                    s.timerId = -1;
                    schedule(s);
                });
                case STOP -> { }
            }
        }
        pump();
    }

    private void finish(OwnedShard s, Next next) {
        finish(s, next, 0);
    }

    private void woken(ShardId shard) {
        OwnedShard s = shards.get(shard);
        if (s != null && s.idle) {
            s.idle = false;
            schedule(s);
        }
    }

    private void unidle(OwnedShard s) {
        if (s.idle) {
            s.idle = false;
            wakeUp.remove(s.shard());
        }
    }

    // ---- one step of a shard, on a local worker slot ----

    private void step(OwnedShard s) {
        if (!s.unacked.isEmpty()) {
            ack(s);
        } else if (s.batch != null && s.batch.deadLetterDue()) {
            deadLetter(s);
        } else if (s.batch != null) {
            process(s);
        } else if (s.phase() == ShardPhase.TAKING_OVER) {
            takeover(s);
        } else if (s.phase() == ShardPhase.REPLAYING || s.phase() == ShardPhase.READING) {
            read(s);
        } else {
            finish(s, Next.STOP);
        }
    }

    private void takeover(OwnedShard s) {
        on(commands.takeover(s.shard(), settings.group(), memberId(), s.ownerEpoch(), s.cursor, settings.takeoverPageSize()), ar -> {
            if (ar.failed()) {
                redisFailed(s, ar.cause());
                return;
            }
            s.redisFailures = 0;
            if (s.phase() != ShardPhase.TAKING_OVER) {
                finish(s, Next.STOP);
                return;
            }
            if (ar.result().done()) {
                s.cursor = "0";
                transition(s, ShardPhase.REPLAYING, "takeover sweep complete");
            } else {
                s.cursor = ar.result().nextCursor();
            }
            finish(s, Next.AGAIN);
        });
    }

    private void read(OwnedShard s) {
        boolean replay = s.phase() == ShardPhase.REPLAYING;
        on(commands.read(s.shard(), settings.group(), memberId(), s.ownerEpoch(), settings.batchSize(), replay ? s.cursor : ">"), ar -> {
            if (ar.failed()) {
                redisFailed(s, ar.cause());
                return;
            }
            s.redisFailures = 0;
            if (!s.phase().active()) {
                finish(s, Next.STOP);
                return;
            }
            ShardCommands.ReadResult page = ar.result();
            if (replay && s.phase() == ShardPhase.REPLAYING) {
                if (page.records().isEmpty() && page.cursor().isEmpty()) {
                    transition(s, ShardPhase.READING, "pending entries handled");
                    finish(s, Next.AGAIN);
                    return;
                }
                s.cursor = page.cursor();
            } else if (page.records().isEmpty()) {
                s.wakeId = page.cursor();
                finish(s, Next.IDLE);
                return;
            }
            if (page.records().isEmpty()) {
                finish(s, Next.AGAIN);
                return;
            }
            s.batch = new BatchRun(page.records());
            process(s);
        });
    }

    private void process(OwnedShard s) {
        BatchRun batch = s.batch;
        batch.markStarted();
        List<StreamRecord> records = batch.current();
        long started = nanoClock.getAsLong();
        on(invoker.invoke(s, records), ar -> {
            if (!s.phase().active()) {
                finish(s, Next.STOP); // fenced or abandoned meanwhile: no ack
                return;
            }
            if (ar.succeeded()) {
                metrics.handled(records.size(), nanoClock.getAsLong() - started);
                batch.advance();
                s.unacked = ids(records);
                if (batch.finished() && s.phase() == ShardPhase.READING && !s.paused && !memberPaused) {
                    ackAndRead(s);
                } else {
                    ack(s);
                }
                return;
            }
            metrics.failedAttempt();
            Throwable error = ar.cause();
            switch (batch.failed(error, settings.maxAttempts())) {
                case RETRY -> {
                    long delay = settings.backoffMs(batch.attempt() - 1);
                    LOG.warn("member {} shard {}: handler failed on {} record(s) from {} (attempt {} of {}), retrying in {} ms: {}",
                            memberId(), s.shard(), records.size(), records.get(0).entryId(), batch.attempt() - 1,
                            settings.maxAttempts(), delay, error.toString());
                    finish(s, Next.WAIT, delay);
                }
                case SPLIT -> {
                    LOG.warn("member {} shard {}: batch of {} failed {} time(s); handling its records one by one: {}",
                            memberId(), s.shard(), records.size(), settings.maxAttempts(), error.toString());
                    process(s);
                }
                case DEAD_LETTER -> {
                    batch.markDeadLetterDue();
                    deadLetter(s);
                }
            }
        });
    }

    private void deadLetter(OwnedShard s) {
        BatchRun batch = s.batch;
        StreamRecord record = batch.current().get(0);
        on(deadLetters.write(record, s, batch.attemptsMade(), batch.lastError()), ar -> {
            if (ar.failed()) {
                redisFailed(s, ar.cause());
                return;
            }
            LOG.error("member {} shard {}: record {} failed {} attempt(s); written to dead-letter stream {} as {}: {}",
                    memberId(), s.shard(), record.entryId(), batch.attemptsMade(), settings.deadLetterStream(), ar.result(),
                    DeadLetterWriter.describe(batch.lastError()));
            metrics.deadLettered();
            batch.advance();
            s.unacked = List.of(record.entryId());
            ack(s);
        });
    }

    private void ack(OwnedShard s) {
        List<String> ids = s.unacked;
        if (!s.phase().active()) {
            finish(s, Next.STOP);
            return;
        }
        on(commands.ack(s.shard(), settings.group(), memberId(), s.ownerEpoch(), settings.ackMode(), ids), ar -> {
            if (ar.failed()) {
                redisFailed(s, ar.cause());
                return;
            }
            s.redisFailures = 0;
            s.unacked = List.of();
            if (s.batch != null && s.batch.finished()) {
                s.batch = null;
            }
            finish(s, Next.AGAIN);
        });
    }

    /** The hot path: acknowledge the batch just handled and read the next one in one call; the shard then goes to the tail. */
    private void ackAndRead(OwnedShard s) {
        List<String> ids = s.unacked;
        on(commands.ackAndRead(s.shard(), settings.group(), memberId(), s.ownerEpoch(), settings.ackMode(), ids, settings.batchSize()), ar -> {
            if (ar.failed()) {
                redisFailed(s, ar.cause());
                return;
            }
            s.redisFailures = 0;
            s.unacked = List.of();
            s.batch = null;
            if (!s.phase().active()) {
                finish(s, Next.STOP);
                return;
            }
            ShardCommands.ReadResult page = ar.result();
            if (page.records().isEmpty()) {
                s.wakeId = page.cursor();
                finish(s, Next.IDLE);
            } else {
                s.batch = new BatchRun(page.records()); // read ahead; handled when the shard's turn comes again
                finish(s, Next.AGAIN);
            }
        });
    }

    private void redisFailed(OwnedShard s, Throwable error) {
        if (!s.phase().active()) {
            finish(s, Next.STOP);
            return;
        }
        metrics.redisError();
        switch (ShardFailure.of(error)) {
            case FENCED -> {
                fence(s, error.getMessage());
                finish(s, Next.STOP);
            }
            case NO_GROUP -> {
                LOG.warn("member {} shard {}: consumer group {} is missing (Redis lost it?); creating it again at 0",
                        memberId(), s.shard(), settings.group());
                on(commands.ensureGroup(s.shard(), settings.group(), "0"), ar -> backoff(s, ar.succeeded() ? null : ar.cause()));
            }
            default -> backoff(s, error);
        }
    }

    private void backoff(OwnedShard s, Throwable error) {
        if (error == null) {
            finish(s, Next.AGAIN);
            return;
        }
        s.redisFailures++;
        long delay = Math.min(settings.retryBackoffMaxMs(), Math.max(10L, settings.retryBackoffMs()) << Math.min(s.redisFailures - 1, 16));
        LOG.warn("member {} shard {}: Redis call failed ({} in a row), retrying in {} ms: {}",
                memberId(), s.shard(), s.redisFailures, delay, error.toString());
        finish(s, Next.WAIT, delay);
    }

    // ---- terminal transitions ----

    /** Completes the release when nothing is in flight (or the batch is abandoned); true when it did. */
    private boolean maybeFinishRelease(OwnedShard s) {
        boolean drained = (s.batch == null || !s.batch.started()) && s.unacked.isEmpty();
        boolean abandon = settings.releaseMode() == ConsumerSettings.ReleaseMode.ABANDON;
        if (abandon || (drained && !s.stepping)) {
            if (!drained) {
                LOG.info("member {} shard {}: abandoning the batch in flight; the next owner takes it over", memberId(), s.shard());
            }
            cancelTimer(s);
            s.batch = null; // a batch only read ahead stays pending in Redis for the next owner's takeover
            transition(s, ShardPhase.RELEASED, drained ? "in-flight batch finished" : "in-flight batch abandoned");
            remove(s);
            revoked(s).onComplete(ar -> s.released.complete());
            return true;
        }
        return false;
    }

    private Future<Void> fence(OwnedShard s, String reason) {
        if (!s.phase().active()) {
            return Future.succeededFuture();
        }
        transition(s, ShardPhase.FENCED, reason);
        metrics.fenced();
        ready.remove(s);
        unidle(s);
        cancelTimer(s);
        remove(s);
        events.fenced(s.shard(), s.ownerEpoch(), reason);
        Future<Void> revoked = revoked(s);
        if (s.released != null) {
            revoked.onComplete(ar -> s.released.complete());
        }
        return revoked;
    }

    private Future<Void> revoked(OwnedShard s) {
        return invoker.run(() -> {
            handler.onRevoked(s);
            return null;
        }).recover(e -> {
            LOG.warn("member {}: {}.onRevoked({}) threw; ignored", memberId(), handler, s.shard(), e);
            return Future.succeededFuture();
        });
    }

    private void remove(OwnedShard s) {
        if (shards.get(s.shard()) == s) {
            shards.remove(s.shard());
            view.remove(s.shard());
        }
    }

    private void cancelTimer(OwnedShard s) {
        if (s.timerId >= 0) {
            vertx.cancelTimer(s.timerId);
            s.timerId = -1;
        }
    }

    private void transition(OwnedShard s, ShardPhase next, String reason) {
        s.transitionTo(next, reason);
        if (shards.get(s.shard()) == s && next.active()) {
            view.put(s.shard(), next);
        }
    }

    // ---- plumbing ----

    private static List<String> ids(List<StreamRecord> records) {
        List<String> ids = new ArrayList<>(records.size());
        records.forEach(r -> ids.add(r.entryId()));
        return ids;
    }

    private <T> void on(Future<T> future, Handler<AsyncResult<T>> handler) {
        future.onComplete(ar -> {
            if (Vertx.currentContext() == context) {
                handler.handle(ar);
            } else {
                context.runOnContext(v -> handler.handle(ar));
            }
        });
    }

    private <T> Future<T> onContext(Supplier<Future<T>> action) {
        Promise<T> promise = Promise.promise();
        context.runOnContext(v -> {
            try {
                action.get().onComplete(promise);
            } catch (RuntimeException e) {
                promise.fail(e);
            }
        });
        return promise.future();
    }
}
