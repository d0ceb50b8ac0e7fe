package io.shardline.runtime.shard;

import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.runtime.plugin.HandlerPlugin;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shards one logical member owns, and the poller that serves them (docs/architecture.md, "A record's way": the member's
 * heartbeat loop calls {@link #acquire}, {@link #release}, {@link #fenceAll}; REST calls pause/resume).
 *
 * <p>Multiplexing (docs/architecture.md, "One shard's state machine"): the member serves its shards over {@code max.concurrency} local workers, which
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
 * logged, never silently. While the stream is resharded, Redis bounds a shard's reads by the cutover its group's
 * barrier has not passed; the shard then waits ({@link ShardPhase#AT_CUTOVER}) and polls the shard's routing hash every
 * {@link ConsumerSettings#cutoverPollMs()} until the barrier is released (docs/protocol.md section 8b).
 *
 * <p>Thread-safety: all state lives on one Vert.x context; public methods may be called from any thread
 * and return futures completed on that context. Handler code runs on the member's worker pool.
 *
 * <p>Structure: this class is the member's API and the thin driver of its {@link ShardMachine}, which holds every
 * shard's state ({@link ShardPhase} x {@link ShardActivity}, one gate), the ready queue, the local workers and the read
 * priority, and returns its decisions as {@link ShardAction}s. The driver owns everything with a side effect: the
 * fenced Redis commands ({@link ShardCommands} under each shard's {@link Fence}), the handler calls
 * ({@link HandlerInvoker}), dead letters, the wake-up connections ({@link WakeUps}), the timers ({@link ShardTimers})
 * and the release promises; it brings every result back onto the member's context as the machine's next event.
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

        /**
         * Group {@code group} acknowledged {@code shard} up to the cutover the leader asked its member to watch
         * ({@link #watchDrain}): the worker tells the leader, whose resharding task checks the barriers at once.
         */
        default void drained(ShardId shard, String group) {
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(MemberShards.class);

    private final Vertx vertx;
    private final Context context;
    private final HandlerContext handlerContext;
    private final ConsumerSettings settings;
    private final ShardCommands commands;
    private final HandlerPlugin handler;
    private final WorkerExecutor executor;
    private final HandlerInvoker invoker;
    private final DeadLetterWriter deadLetters;
    private final Events events;
    private final MemberLease lease;
    private final LongSupplier nanoClock;
    private final WakeUps wakeUps;
    private final ShardMachine machine;
    /** The releases asked for and not yet complete, by ownership. */
    private final Map<OwnedShard, Promise<Void>> releases = new IdentityHashMap<>();

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
        this.vertx = vertx;
        this.lease = Objects.requireNonNull(lease, "lease");
        this.context = vertx.getOrCreateContext();
        this.handlerContext = handlerContext;
        this.settings = settings;
        this.commands = new ShardCommands(redis, settings.hotPath());
        this.handler = handler;
        this.events = events;
        this.nanoClock = nanoClock;
        this.executor = vertx.createSharedWorkerExecutor("shardline-handler-" + handlerContext.memberId(),
                settings.maxConcurrency() * 2, 365, TimeUnit.DAYS);
        this.invoker = new HandlerInvoker(handler, executor, settings.handlerTimeoutMs());
        this.deadLetters = new DeadLetterWriter(commands, settings, clockMs);
        this.machine = new ShardMachine(handlerContext, settings, lease, metrics, nanoClock, new ShardTimers() {
            @Override
            public long set(long delayMs, OwnedShard shard, Kind kind) {
                return vertx.setTimer(Math.max(1, delayMs), id -> execute(machine.timerFired(shard, kind, id)));
            }

            @Override
            public void cancel(long id) {
                vertx.cancelTimer(id);
            }
        });
        this.wakeUps = new WakeUps(redis, context, settings.wakeUpBlockMs(), shard -> execute(machine.woken(shard)),
                new ReadBehind(settings.group(), handlerContext.memberId(), settings.batchSize(), new ReadBehind.Port() {
                    @Override
                    public OwnedShard claim(ShardId shard) {
                        return machine.claimReadBehind(shard);
                    }

                    @Override
                    public void landed(OwnedShard shard, ReadBehind.Outcome outcome) {
                        execute(machine.behindLanded(shard, outcome));
                    }
                }));
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
            execute(machine.acquire(shard, ownerEpoch));
            return Future.succeededFuture();
        });
    }

    /**
     * Gives the shard up: no more reads; the batch in flight is finished (or abandoned, per
     * {@link ConsumerSettings#releaseMode()}); {@code onRevoked} is called; then the future completes and
     * the member may report the shard REVOKED. Releasing a shard not owned completes at once.
     */
    public Future<Void> release(ShardId shard) {
        return onContext(() -> {
            OwnedShard s = machine.shard(shard);
            if (s == null || !s.phase().active()) {
                return Future.succeededFuture();
            }
            Promise<Void> released = releases.computeIfAbsent(s, k -> Promise.promise());
            execute(machine.release(shard));
            return released.future();
        });
    }

    /** Self-fencing: stops every shard at once; nothing more is read or acknowledged. */
    public Future<Void> fenceAll() {
        return onContext(() -> Future.join(execute(machine.fenceAll())).mapEmpty());
    }

    /** Stops reading one shard (ownership and heartbeats go on); the batch in flight finishes. */
    public Future<Void> pause(ShardId shard) {
        return onContext(() -> {
            execute(machine.pause(shard));
            return Future.succeededFuture();
        });
    }

    /** Resumes a paused shard. */
    public Future<Void> resume(ShardId shard) {
        return onContext(() -> {
            execute(machine.resume(shard));
            return Future.succeededFuture();
        });
    }

    /** Stops reading every shard of this member (listener-level pause); a held acknowledgement is sent now. */
    public Future<Void> pauseAll() {
        return onContext(() -> {
            execute(machine.pauseMember(true));
            return Future.succeededFuture();
        });
    }

    /** Resumes every shard not paused on its own. */
    public Future<Void> resumeAll() {
        return onContext(() -> {
            execute(machine.pauseMember(false));
            return Future.succeededFuture();
        });
    }

    /** Releases every shard, stops the handler and closes the member's connections and workers. */
    public Future<Void> close() {
        return onContext(() -> {
            List<Future<Void>> released = new ArrayList<>();
            for (ShardId shard : new ArrayList<>(machine.view().keySet())) {
                released.add(release(shard));
            }
            return Future.join(released).<Void>mapEmpty()
                    .compose(v -> invoker.run(() -> {
                        handler.stop();
                        return null;
                    }))
                    .recover(e -> {
                        LOG.warn("member {}: {}.stop() threw", memberId(), handler, e);
                        return Future.succeededFuture();
                    })
                    .eventually(() -> {
                        execute(machine.close());
                        return wakeUps.close();
                    })
                    .eventually(executor::close);
        });
    }

    /** The shards owned now (not yet released or fenced), in order. Any thread. */
    public Set<ShardId> ownedShards() {
        return new TreeSet<>(machine.view().keySet());
    }

    /** The phase of an owned shard. Any thread. */
    public Optional<ShardPhase> phase(ShardId shard) {
        return Optional.ofNullable(machine.view().get(shard));
    }

    /**
     * The shards of this member waiting at a resharding cutover now ({@link ShardPhase#AT_CUTOVER}), with the routing
     * epoch each waits at. Completes on the member's context.
     */
    public Future<Map<ShardId, Long>> atCutover() {
        return onContext(() -> Future.succeededFuture(machine.atCutover()));
    }

    /**
     * The leader released barriers of {@code stream} for this member's group (a hint over the event bus): its shards
     * of the stream waiting at a cutover poll their routing hash now instead of at their next poll. Any thread.
     */
    public void barrierReleased(String stream) {
        context.runOnContext(v -> execute(machine.barrierReleased(stream)));
    }

    /**
     * The leader's watch hint: {@code cutovers} (shard index of {@code stream} to cutover id) are the parents this
     * member's group waits for; its shards among them report reaching their cutover ({@link Events#drained}). Any
     * thread.
     */
    public void watchDrain(String stream, Map<Integer, String> cutovers) {
        Map<Integer, String> copy = Map.copyOf(cutovers);
        context.runOnContext(v -> execute(machine.watchDrain(stream, copy)));
    }

    // ---- the driver: carries out the machine's decisions, brings results back as events ----

    /** Carries out {@code actions} in order; returns the futures of the {@code onRevoked} calls among them. */
    private List<Future<Void>> execute(List<ShardAction> actions) {
        List<Future<Void>> revoked = List.of();
        for (ShardAction action : actions) {
            Future<Void> r = execute(action);
            if (r != null) {
                if (revoked.isEmpty()) {
                    revoked = new ArrayList<>(2);
                }
                revoked.add(r);
            }
        }
        return revoked;
    }

    private Future<Void> execute(ShardAction action) {
        Fence f;
        if (action instanceof ShardAction.Handle a) {
            long started = nanoClock.getAsLong();
            on(invoker.invoke(a.shard(), a.records(), lease), ar -> {
                if (ar.failed() && !(ar.cause() instanceof LeaseLapsedException) && a.shard().phase().active()) {
                    // kept in Redis while the entries are pending, for a dead letter at max.deliveries
                    deadLetters.noteFailure(a.records().get(0), a.records().stream().map(StreamRecord::entryId).toList(),
                            BatchRun.unwrap(ar.cause()));
                }
                return machine.handled(a.shard(), a.records(), started, ar.failed() ? ar.cause() : null);
            });
        } else if (action instanceof ShardAction.AckAndRead a) {
            f = a.shard().fence();
            on(commands.ackAndRead(f, settings.ackMode(), a.ids(), settings.batchSize(), a.keepingUp()),
                    ar -> ar.failed() ? machine.redisFailed(a.shard(), ar.cause(), true) : machine.ackAndReadDone(a.shard(), ar.result()));
        } else if (action instanceof ShardAction.Read a) {
            boolean replay = !">".equals(a.from());
            f = a.shard().fence();
            Future<ShardCommands.ReadResult> read = a.script() ? commands.readNew(f, settings.batchSize())
                    // pending entries one by one: a poison record is delivered alone
                    : commands.read(f, replay ? 1 : settings.batchSize(), a.from());
            on(read, ar -> ar.failed() ? machine.redisFailed(a.shard(), ar.cause(), !replay)
                    : machine.readDone(a.shard(), replay, ar.result()));
        } else if (action instanceof ShardAction.PollCutover a) {
            on(commands.cutoverReleased(a.shard().fence(), a.epoch()),
                    ar -> ar.failed() ? machine.redisFailed(a.shard(), ar.cause(), false) : machine.cutoverPolled(a.shard(), ar.result()));
        } else if (action instanceof ShardAction.Ack a) {
            on(commands.ack(a.shard().fence(), settings.ackMode(), a.ids()),
                    ar -> ar.failed() ? machine.redisFailed(a.shard(), ar.cause(), false) : machine.acked(a.shard()));
        } else if (action instanceof ShardAction.Watch a) {
            wakeUps.add(a.shard(), a.afterId());
        } else if (action instanceof ShardAction.Unwatch a) {
            wakeUps.remove(a.shard());
        } else if (action instanceof ShardAction.Takeover a) {
            on(commands.takeover(a.shard().fence(), a.cursor(), settings.takeoverPageSize()),
                    ar -> ar.failed() ? machine.redisFailed(a.shard(), ar.cause(), false) : machine.takeoverDone(a.shard(), ar.result()));
        } else if (action instanceof ShardAction.DeadLetter a) {
            on(deadLetters.write(a.record(), a.shard(), a.attempts(), a.error()),
                    ar -> machine.deadLettered(a.shard(), a.record(), ar.result(), ar.failed() ? ar.cause() : null));
        } else if (action instanceof ShardAction.EnsureGroup a) {
            on(commands.ensureGroup(a.shard().shard(), settings.group(), "0"),
                    ar -> machine.groupEnsured(a.shard(), ar.failed() ? ar.cause() : null));
        } else if (action instanceof ShardAction.Assign a) {
            Future<Void> assigned = invoker.run(() -> {
                handler.onAssigned(a.shard());
                return null;
            }).recover(e -> {
                LOG.warn("member {}: {}.onAssigned({}) threw; continuing", memberId(), handler, a.shard().shard(), e);
                return Future.succeededFuture();
            });
            on(assigned, ar -> machine.assigned(a.shard()));
        } else if (action instanceof ShardAction.Revoke a) {
            return revoke(a.shard());
        } else if (action instanceof ShardAction.Fenced a) {
            events.fenced(memberId(), a.shard().shard(), a.shard().ownerEpoch(), a.reason());
        } else if (action instanceof ShardAction.Failed a) {
            events.failed(memberId(), a.shard().shard(), a.reason());
        } else if (action instanceof ShardAction.Drained a) {
            events.drained(a.shard().shard(), a.shard().fence().group());
        }
        return null;
    }

    /** Calls {@code onRevoked}, then completes the shard's release if one was asked for. */
    private Future<Void> revoke(OwnedShard s) {
        Future<Void> revoked = invoker.run(() -> {
            handler.onRevoked(s);
            return null;
        }).recover(e -> {
            LOG.warn("member {}: {}.onRevoked({}) threw; ignored", memberId(), handler, s.shard(), e);
            return Future.succeededFuture();
        });
        revoked.onComplete(ar -> context.runOnContext(v -> {
            Promise<Void> released = releases.remove(s);
            if (released != null) {
                released.complete();
            }
        }));
        return revoked;
    }

    /** Brings {@code future}'s result onto the member's context, hands it to the machine, carries out its decisions. */
    private <T> void on(Future<T> future, Function<AsyncResult<T>, List<ShardAction>> event) {
        future.onComplete(ar -> {
            if (Vertx.currentContext() == context) {
                execute(event.apply(ar));
            } else {
                context.runOnContext(v -> execute(event.apply(ar)));
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
