package io.shardline.runtime.shard;

import io.shardline.api.handler.StreamRecord;
import io.shardline.runtime.plugin.HandlerPlugin;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-shard step machine of one member: what one step of an owned shard does (the fenced takeover
 * sweep, the fenced read or replay, the handler call for the batch, dead-lettering, the fenced ack or
 * ack-and-read), how a failed Redis call is retried with backoff or turns into a fence, and the terminal
 * transitions (finishing a release, fencing, {@code onRevoked}).
 *
 * <p>It owns no scheduling: {@link MemberShards} keeps the ready queues, the local workers and the shard map,
 * hands a shard to {@link #step} (with a worker when the step calls the handler), and is told through
 * {@link Scheduler#finish} what the shard does next. Every step ends in exactly one {@code finish} call.
 *
 * <p>Threading: runs only on the member's Vert.x context (the one {@link MemberShards} was built on);
 * results of Redis calls and handler calls are brought back onto that context before they touch a shard.
 * Not thread-safe on its own.
 */
final class ShardSteps {

    /**
     * What a shard does after its step: step again; wait for new entries; wait for a timer; stop; or {@code LINGER}:
     * wait for new entries holding the acknowledgement of the batch just handled, which goes to Redis with the
     * shard's next read or, if none comes within {@code ack.linger.ms}, on its own.
     */
    enum Next { AGAIN, IDLE, WAIT, STOP, LINGER }

    /** The member's scheduler, as the steps see it. Called on the member's context. */
    interface Scheduler {
        /** The step is over: frees its worker (if it still holds one) and queues, parks, delays or drops the shard. */
        void finish(OwnedShard s, Next next, long delayMs);

        /** True while the whole member is paused. */
        boolean memberPaused();

        /** Moves the shard to {@code next} and updates the member's phase view. */
        void transition(OwnedShard s, ShardPhase next, String reason);

        /** Takes the shard out of the ready queues and off the wake-up connections. */
        void unschedule(OwnedShard s);

        /** The handler call of the shard's step is over: its local worker is free for the next shard waiting. */
        void workerDone(OwnedShard s);

        /** Runs {@code call} now, or once the reads of keeping-up shards in flight now have returned ({@link ReadPriority}). */
        void afterKeepingUpReads(Runnable call);

        /** Drops the shard from the member's shard map and phase view (if it is still the current one). */
        void forget(OwnedShard s);
    }

    /** Same logger name as before the split, so log configuration and output stay unchanged. */
    private static final Logger LOG = LoggerFactory.getLogger(MemberShards.class);
    /**
     * How often a shard whose member's lease ran out looks again: the member's heartbeat loop fences the whole member
     * within its poll interval (then this shard stops for good); until then the shard handles and acknowledges
     * nothing, and goes on only if the lease turns out valid again (a lapse seen just before an extension landed).
     */
    static final long LEASE_RECHECK_MS = 50;

    private final Vertx vertx;
    private final Context context;
    private final String memberId;
    private final ConsumerSettings settings;
    private final ShardCommands commands;
    private final HandlerPlugin handler;
    private final HandlerInvoker invoker;
    private final DeadLetterWriter deadLetters;
    private final MemberShards.Events events;
    private final ConsumptionMetrics metrics;
    private final LongSupplier nanoClock;
    private final MemberLease lease;
    private final Scheduler scheduler;

    ShardSteps(Vertx vertx, Context context, String memberId, ConsumerSettings settings, ShardCommands commands,
               HandlerPlugin handler, HandlerInvoker invoker, DeadLetterWriter deadLetters,
               MemberShards.Events events, ConsumptionMetrics metrics, LongSupplier nanoClock, MemberLease lease,
               Scheduler scheduler) {
        this.vertx = vertx;
        this.context = context;
        this.memberId = memberId;
        this.settings = settings;
        this.commands = commands;
        this.handler = handler;
        this.invoker = invoker;
        this.deadLetters = deadLetters;
        this.events = events;
        this.metrics = metrics;
        this.nanoClock = nanoClock;
        this.lease = lease;
        this.scheduler = scheduler;
    }

    /** Runs one step for a shard (holding a worker if it calls the handler); it ends in exactly one {@link Scheduler#finish}. */
    void step(OwnedShard s) {
        if (s.phase().active() && !lease.valid()) {
            leaseLapsed(s, "read or handle");
        } else if (!s.unacked.isEmpty()) {
            if (s.batch == null && readsOn(s)) {
                ackAndRead(s); // a lingering acknowledgement goes with the next read
            } else {
                ack(s);
            }
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
        on(commands.takeover(s.shard(), settings.group(), memberId, s.ownerEpoch(), s.cursor, settings.takeoverPageSize()), ar -> {
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
        Future<ShardCommands.ReadResult> read = !replay && s.keepingUp
                ? commands.readNew(s.shard(), settings.group(), memberId, s.ownerEpoch(), settings.batchSize())
                : commands.read(s.shard(), settings.group(), memberId, s.ownerEpoch(), replay ? 1 : settings.batchSize(),
                        replay ? s.cursor : ">"); // pending entries one by one: a poison record is delivered alone
        on(read, ar -> {
            if (ar.failed()) {
                redisFailed(s, ar.cause(), !replay);
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
            } else {
                if (!replay) {
                    s.keepingUp = page.records().size() <= ShardCommands.smallRead(settings.batchSize());
                }
                if (page.records().isEmpty()) {
                    s.wakeId = page.cursor();
                    finish(s, Next.IDLE);
                    return;
                }
            }
            if (page.records().isEmpty()) {
                finish(s, Next.AGAIN);
                return;
            }
            s.batch = new BatchRun(page.records(), settings.maxDeliveries());
            finish(s, Next.AGAIN); // the handler call waits for a local worker (and, if paused meanwhile, for the resume)
        });
    }

    private void process(OwnedShard s) {
        BatchRun batch = s.batch;
        batch.markStarted();
        List<StreamRecord> records = batch.current();
        long started = nanoClock.getAsLong();
        on(invoker.invoke(s, records, lease), ar -> {
            scheduler.workerDone(s);
            if (!s.phase().active()) {
                finish(s, Next.STOP); // fenced or abandoned meanwhile: no ack
                return;
            }
            if (ar.failed() && ar.cause() instanceof LeaseLapsedException) {
                leaseLapsed(s, "handle " + records.size() + " record(s) from " + records.get(0).entryId());
                return;
            }
            if (ar.succeeded()) {
                metrics.handled(records.size(), nanoClock.getAsLong() - started);
                batch.advance();
                s.unacked = ids(records);
                if (!lease.valid()) {
                    leaseLapsed(s, "acknowledge " + records.size() + " handled record(s)");
                } else if (batch.finished() && readsOn(s)) {
                    if (lingers(s)) {
                        s.batch = null;
                        s.wakeId = records.get(records.size() - 1).entryId();
                        finish(s, Next.LINGER);
                    } else {
                        ackAndRead(s);
                    }
                } else {
                    ack(s);
                }
                return;
            }
            metrics.failedAttempt();
            Throwable error = ar.cause();
            deadLetters.noteFailure(records.get(0), ids(records), BatchRun.unwrap(error));
            switch (batch.failed(error, settings.maxAttempts())) {
                case RETRY -> {
                    long delay = settings.backoffMs(batch.attempt() - 1);
                    LOG.warn("member {} shard {}: handler failed on {} record(s) from {} (attempt {} of {}), retrying in {} ms: {}",
                            memberId, s.shard(), records.size(), records.get(0).entryId(), batch.attempt() - 1,
                            settings.maxAttempts(), delay, error.toString());
                    finish(s, Next.WAIT, delay);
                }
                case SPLIT -> {
                    LOG.warn("member {} shard {}: batch of {} failed {} time(s); handling its records one by one: {}",
                            memberId, s.shard(), records.size(), settings.maxAttempts(), error.toString());
                    finish(s, Next.AGAIN); // the first record alone, on the next free worker
                }
                case DEAD_LETTER -> {
                    batch.markDeadLetterDue();
                    deadLetter(s);
                }
            }
        });
    }

    /** Whether the shard reads on after this step: reading new entries and paused neither alone nor with its member. */
    private boolean readsOn(OwnedShard s) {
        return s.phase() == ShardPhase.READING && !s.paused && !scheduler.memberPaused();
    }

    /**
     * Whether the acknowledgement of the batch just handled waits for the shard's next read: only for a shard that
     * keeps up (its last read was small, so the next one is likely soon and small) and only when a release finishes
     * the batch in flight (an abandoning release would leave the handled records to the next owner).
     */
    private boolean lingers(OwnedShard s) {
        return settings.ackLingerMs() > 0 && s.keepingUp && settings.releaseMode() == ConsumerSettings.ReleaseMode.FINISH;
    }

    private void deadLetter(OwnedShard s) {
        if (!lease.valid()) {
            leaseLapsed(s, "dead-letter a record");
            return;
        }
        BatchRun batch = s.batch;
        StreamRecord record = batch.current().get(0);
        on(deadLetters.write(record, s, batch.attemptsMade(), batch.poison() ? null : batch.lastError()), ar -> {
            if (ar.failed() && ShardFailure.permanent(ar.cause()) && s.phase().active()) {
                deadLetterFailed(s, record, ar.cause());
                return;
            }
            if (ar.failed()) {
                redisFailed(s, ar.cause());
                return;
            }
            LOG.error("member {} shard {}: record {} failed {} attempt(s) (delivery {}); written to dead-letter stream {} as {}: {}",
                    memberId, s.shard(), record.entryId(), batch.attemptsMade(), record.deliveryCount(),
                    settings.deadLetterStream(), ar.result(), batch.poison() ? "max.deliveries reached"
                            : DeadLetterWriter.describe(batch.lastError()));
            metrics.deadLettered();
            batch.advance();
            s.unacked = List.of(record.entryId());
            ack(s); // checks the lease first
        });
    }

    /**
     * The dead-letter write failed for good: the shard stops (no retry loop), its batch is dropped (the records stay
     * pending in Redis, so nothing is lost: the next owner, or this one after a restart, takes them over) and the
     * listener is reported FAILED with the reason.
     */
    private void deadLetterFailed(OwnedShard s, StreamRecord record, Throwable error) {
        metrics.redisError();
        String reason = "shard " + s.shard() + ": cannot write record " + record.entryId() + " to the dead-letter "
                + "stream " + settings.deadLetterStream() + " (" + error.getMessage() + "); the shard stopped and its "
                + "unacknowledged records stay pending: fix the key or dead.letter.stream, then restart the listener";
        LOG.error("member {} {}", memberId, reason);
        s.batch = null;
        events.failed(memberId, s.shard(), reason);
        finish(s, Next.STOP);
    }

    private void ack(OwnedShard s) {
        List<String> ids = s.unacked;
        if (!s.phase().active()) {
            finish(s, Next.STOP);
            return;
        }
        if (!lease.valid()) {
            leaseLapsed(s, "acknowledge " + ids.size() + " handled record(s)");
            return;
        }
        on(commands.ack(s.shard(), settings.group(), memberId, s.ownerEpoch(), settings.ackMode(), ids), ar -> {
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
        if (s.keepingUp) {
            ackAndReadNow(s);
        } else {
            scheduler.afterKeepingUpReads(() -> ackAndReadNow(s)); // a full batch: keeping-up shards' reads first
        }
    }

    private void ackAndReadNow(OwnedShard s) {
        if (!s.phase().active()) {
            finish(s, Next.STOP);
            return;
        }
        if (s.phase() != ShardPhase.READING) {
            ack(s); // released while it waited: acknowledge only, no read-ahead
            return;
        }
        List<String> ids = s.unacked;
        if (!lease.valid()) {
            leaseLapsed(s, "acknowledge " + ids.size() + " handled record(s)");
            return;
        }
        on(commands.ackAndRead(s.shard(), settings.group(), memberId, s.ownerEpoch(), settings.ackMode(), ids, settings.batchSize(),
                s.keepingUp), ar -> {
            if (ar.failed()) {
                redisFailed(s, ar.cause(), true);
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
            s.keepingUp = page.records().size() <= ShardCommands.smallRead(settings.batchSize());
            if (page.records().isEmpty()) {
                s.wakeId = page.cursor();
                finish(s, Next.IDLE);
            } else {
                s.batch = new BatchRun(page.records(), settings.maxDeliveries()); // read ahead; handled when the shard's turn comes again
                finish(s, Next.AGAIN);
            }
        });
    }

    /**
     * The member's lease ran out: {@code what} is not done. The batch in flight (or the handled, unacknowledged ids)
     * stays as it is, and so do the records in Redis (pending, for the next owner's takeover); the shard looks again
     * after {@link #LEASE_RECHECK_MS}, by when the member has normally fenced itself and dropped the shard.
     */
    private void leaseLapsed(OwnedShard s, String what) {
        if (!s.leaseLapsed) {
            s.leaseLapsed = true;
            LOG.warn("member {} shard {} epoch {}: not going to {}: the member's lease ran out ({}); the records stay "
                    + "pending for the next owner", memberId, s.shard(), s.ownerEpoch(), what, lease);
        }
        finish(s, Next.WAIT, LEASE_RECHECK_MS);
    }

    private void redisFailed(OwnedShard s, Throwable error) {
        redisFailed(s, error, false);
    }

    /**
     * A Redis call failed. {@code readNew}: it was a read of new entries ({@code >}); unless Redis refused it (fenced,
     * no group), its outcome is unknown: Redis may have run it and delivered entries to this member's pending list
     * whose reply was lost (a timeout, a dropped connection). Those would never come again from {@code >}, so the
     * shard replays its own pending entries first (from id 0), then reads new ones: at-least-once without a move.
     */
    private void redisFailed(OwnedShard s, Throwable error, boolean readNew) {
        if (!s.phase().active()) {
            finish(s, Next.STOP);
            return;
        }
        ShardFailure failure = ShardFailure.of(error);
        if (readNew && s.phase() == ShardPhase.READING && failure != ShardFailure.FENCED
                && failure != ShardFailure.NO_GROUP) {
            s.cursor = "0";
            transition(s, ShardPhase.REPLAYING, "the outcome of a read is unknown (" + error.getMessage()
                    + "): its entries may be in this member's pending list");
        }
        metrics.redisError();
        switch (failure) {
            case FENCED -> {
                fence(s, error.getMessage());
                finish(s, Next.STOP);
            }
            case NO_GROUP -> {
                LOG.warn("member {} shard {}: consumer group {} is missing (Redis lost it?); creating it again at 0",
                        memberId, s.shard(), settings.group());
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
                memberId, s.shard(), s.redisFailures, delay, error.toString());
        finish(s, Next.WAIT, delay);
    }

    // ---- terminal transitions ----

    /** Completes the release when nothing is in flight (or the batch is abandoned); true when it did. */
    boolean maybeFinishRelease(OwnedShard s) {
        boolean drained = (s.batch == null || !s.batch.started()) && s.unacked.isEmpty();
        boolean abandon = settings.releaseMode() == ConsumerSettings.ReleaseMode.ABANDON;
        if (abandon || (drained && !s.stepping)) {
            if (!drained) {
                LOG.info("member {} shard {}: abandoning the batch in flight; the next owner takes it over", memberId, s.shard());
            }
            cancelTimer(s);
            s.batch = null; // a batch only read ahead stays pending in Redis for the next owner's takeover
            transition(s, ShardPhase.RELEASED, drained ? "in-flight batch finished" : "in-flight batch abandoned");
            scheduler.forget(s);
            revoked(s).onComplete(ar -> s.released.complete());
            return true;
        }
        return false;
    }

    /** Stops the shard at once (FENCED), calls {@code onRevoked}; completes when that returned. */
    Future<Void> fence(OwnedShard s, String reason) {
        if (!s.phase().active()) {
            return Future.succeededFuture();
        }
        transition(s, ShardPhase.FENCED, reason);
        metrics.fenced();
        scheduler.unschedule(s);
        cancelTimer(s);
        scheduler.forget(s);
        events.fenced(memberId, s.shard(), s.ownerEpoch(), reason);
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
            LOG.warn("member {}: {}.onRevoked({}) threw; ignored", memberId, handler, s.shard(), e);
            return Future.succeededFuture();
        });
    }

    private void cancelTimer(OwnedShard s) {
        if (s.timerId >= 0) {
            vertx.cancelTimer(s.timerId);
            s.timerId = -1;
        }
    }

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

    private void finish(OwnedShard s, Next next) {
        scheduler.finish(s, next, 0);
    }

    private void finish(OwnedShard s, Next next, long delayMs) {
        scheduler.finish(s, next, delayMs);
    }

    private void transition(OwnedShard s, ShardPhase next, String reason) {
        scheduler.transition(s, next, reason);
    }
}
