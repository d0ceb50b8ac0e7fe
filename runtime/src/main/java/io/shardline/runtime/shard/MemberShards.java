package io.shardline.runtime.shard;

import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.ShardId;
import io.shardline.runtime.plugin.HandlerPlugin;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * <p>Multiplexing (seed 004): the member serves its shards over {@code max.concurrency} local workers, which
 * run handler calls. A shard with a batch to handle waits in one FIFO ready queue; a free worker takes the head
 * and calls the handler for it; when the call returns, the worker goes to the next shard waiting while this
 * shard acknowledges (and reads its next batch) without holding a worker, then queues again at the tail. Redis
 * steps (takeover, read, ack, dead letter) hold no worker: each shard has at most one step in flight, so they
 * are bounded by the shards owned, and a shard woken from idle reads at once instead of waiting behind the
 * handler calls of others. So a shard has at most one read loop and one batch in flight, its records are
 * handled in entry-id order, and shards with data are served round-robin: a backlog on one shard delays the
 * others' handler calls by at most one batch per worker. A shard whose read comes back empty waits on the
 * member's wake-up connections ({@link WakeUps}); a shard retrying a failed batch waits on a timer. A shard that
 * keeps up holds the acknowledgement of its last batch for up to {@code ack.linger.ms}, so that it goes with its next
 * read; a backlogged shard's next fenced ack-and-read lets the keeping-up reads in flight go first
 * ({@link ReadPriority}).
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
 * <p>Structure: this class is the member's API and owns the shard map and the phase view. The scheduling (the
 * ready queue, the local workers, idling on the wake-up connections, ack-linger and retry timers, the read priority)
 * lives in {@link ShardScheduler}; what one step of a shard does, the Redis retry and fencing rules and the terminal
 * transitions live in {@link ShardSteps}, which reports the end of every step back through
 * {@link ShardSteps.Scheduler#finish}; the pure parts live beside them ({@link BatchRun}, {@link ShardPhase},
 * {@link ConsumerSettings}, {@link ReadPriority}, {@link WakeUpLoop}, {@link HandlerInvoker}).
 */
public final class MemberShards {

    /** Notifications to the member's owner (the heartbeat loop). Called on the member's context. */
    public interface Events {
        /** The shard was lost: Redis records another owner or epoch. The member should report it gone. */
        default void fenced(ShardId shard, long epoch, String reason) {
        }

        /**
         * The shard of member {@code memberId} was stopped as fenced (Redis refused its read or ack, or the member
         * fenced itself); by default calls {@link #fenced(ShardId, long, String)}. The worker routes it to the
         * member's heartbeat loop, which rejoins when Redis refused a shard it still holds.
         */
        default void fenced(String memberId, ShardId shard, long epoch, String reason) {
            fenced(shard, epoch, reason);
        }

        /**
         * The shard of member {@code memberId} stopped on an error that no retry fixes (its dead-letter stream
         * cannot be written: WRONGTYPE, NOPERM, ERR); the member's listener is FAILED with {@code reason} until it
         * is restarted. The shard keeps its owner and its unacknowledged records stay pending.
         */
        default void failed(String memberId, ShardId shard, String reason) {
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(MemberShards.class);

    private final Context context;
    private final HandlerContext handlerContext;
    private final ConsumerSettings settings;
    private final ShardCommands commands;
    private final HandlerPlugin handler;
    private final WorkerExecutor executor;
    private final HandlerInvoker invoker;
    private final ShardScheduler scheduler;
    private final ShardSteps steps;
    private final MemberLease lease;
    private final Map<ShardId, OwnedShard> shards = new TreeMap<>();
    private final Map<ShardId, ShardPhase> view = new ConcurrentHashMap<>();

    /**
     * @param redis pooled commands and the wake-up connections
     * @param handler this member's handler instance
     * @param handlerContext listener, member id, group, handler config and metrics
     * @param clockMs wall clock for dead-letter timestamps; {@code nanoClock} for durations
     */
    public MemberShards(Vertx vertx, ShardRedis redis, HandlerPlugin handler, HandlerContext handlerContext,
                        ConsumerSettings settings, Events events, ConsumptionMetrics metrics,
                        LongSupplier clockMs, LongSupplier nanoClock) {
        this(vertx, redis, handler, handlerContext, settings, events, metrics, clockMs, nanoClock, MemberLease.unbounded());
    }

    /**
     * A member whose handler calls and acknowledgements are gated by {@code lease}: the member's heartbeat loop keeps
     * it up to date ({@link #leaseUntil}); past its deadline nothing is handed to the handler or acknowledged.
     *
     * @param clockMs wall clock for dead-letter timestamps; {@code nanoClock} for durations
     */
    public MemberShards(Vertx vertx, ShardRedis redis, HandlerPlugin handler, HandlerContext handlerContext,
                        ConsumerSettings settings, Events events, ConsumptionMetrics metrics,
                        LongSupplier clockMs, LongSupplier nanoClock, MemberLease lease) {
        this.lease = Objects.requireNonNull(lease, "lease");
        this.context = vertx.getOrCreateContext();
        this.handlerContext = handlerContext;
        this.settings = settings;
        this.commands = new ShardCommands(redis, settings.hotPath());
        this.handler = handler;
        this.executor = vertx.createSharedWorkerExecutor("shardline-handler-" + handlerContext.memberId(),
                settings.maxConcurrency() * 2, 365, TimeUnit.DAYS);
        this.invoker = new HandlerInvoker(handler, executor, settings.handlerTimeoutMs());
        DeadLetterWriter deadLetters = new DeadLetterWriter(commands, settings, clockMs);
        this.scheduler = new ShardScheduler(vertx, context, redis, settings, new ShardScheduler.Shards() {
            @Override
            public OwnedShard get(ShardId shard) {
                return shards.get(shard);
            }

            @Override
            public void transition(OwnedShard s, ShardPhase next, String reason) {
                MemberShards.this.transition(s, next, reason);
            }

            @Override
            public void forget(OwnedShard s) {
                if (shards.get(s.shard()) == s) {
                    shards.remove(s.shard());
                    view.remove(s.shard());
                }
            }
        });
        this.steps = new ShardSteps(vertx, context, handlerContext.memberId(), settings, commands, handler, invoker,
                deadLetters, events, metrics, nanoClock, lease, scheduler);
        scheduler.bind(steps);
    }

    /** The member id. */
    public String memberId() {
        return handlerContext.memberId();
    }

    /**
     * The member's lease deadline, on the clock of this member's {@link MemberLease}: from then on no record is
     * handed to the handler and nothing is acknowledged. Any thread; takes effect at once.
     */
    public void leaseUntil(long deadlineMs) {
        lease.extendTo(deadlineMs);
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
                    steps.maybeFinishRelease(s);
                }
                scheduler.schedule(s);
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
            scheduler.unschedule(s);
            if (!steps.maybeFinishRelease(s) && settings.releaseMode() == ConsumerSettings.ReleaseMode.FINISH) {
                scheduler.schedule(s); // finish the batch in flight (a no-op while a step or a retry timer is pending)
            }
            return s.released.future();
        });
    }

    /** Self-fencing: stops every shard at once; nothing more is read or acknowledged. */
    public Future<Void> fenceAll() {
        return onContext(() -> {
            List<Future<Void>> revoked = new ArrayList<>();
            for (OwnedShard s : new ArrayList<>(shards.values())) {
                revoked.add(steps.fence(s, "member fenced itself"));
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
                scheduler.unschedule(s);
                scheduler.schedule(s); // a lingering acknowledgement is sent now
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
                scheduler.schedule(s);
            }
            return Future.succeededFuture();
        });
    }

    /** Stops reading every shard of this member (listener-level pause). */
    public Future<Void> pauseAll() {
        return onContext(() -> {
            scheduler.pauseMember(true);
            for (OwnedShard s : shards.values()) {
                scheduler.unschedule(s);
                scheduler.schedule(s); // a lingering acknowledgement is sent now
            }
            return Future.succeededFuture();
        });
    }

    /** Resumes every shard not paused on its own. */
    public Future<Void> resumeAll() {
        return onContext(() -> {
            scheduler.pauseMember(false);
            shards.values().forEach(scheduler::schedule);
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
                        return scheduler.close();
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

    private void transition(OwnedShard s, ShardPhase next, String reason) {
        s.transitionTo(next, reason);
        if (shards.get(s.shard()) == s && next.active()) {
            view.put(s.shard(), next);
        }
    }

    // ---- plumbing ----

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