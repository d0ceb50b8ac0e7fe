package io.shardline.runtime.shard;

import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumption of one member's shards as one state machine: every owned shard's {@link ShardPhase} and
 * {@link ShardActivity} (changed only through {@link OwnedShard#transition}), the member's requests (acquire,
 * release, pause, fence) and the events that come back from the driver. It does no I/O: every entry point (a request
 * of the member, the result of a call, a timer, a wake-up) returns the {@link ShardAction}s the driver
 * ({@link MemberShards}) carries out, and the driver brings each call's result back as the next event.
 *
 * <p>A step is one decision for one shard ({@link #step}): send a held acknowledgement (with the next read when it
 * reads on), dead-letter, call the handler (the only step that takes a worker), take over, replay or read. A shard
 * has at most one step in flight, so at most one read loop and one batch; its records are handled in entry-id order.
 * The machine is three parts behind the one gate: this class (the states, the member's requests, the events and the
 * step), {@link ShardScheduler} (when a step runs: the ready queues, the {@code max.concurrency} local workers, the
 * {@link ReadPriority} of keeping-up reads, idle waits, the ack linger and timers through the {@link ShardTimers} port,
 * so tests run it under a manual clock) and {@link ShardOutcomes} (what a read, a handler call, an ack or a failure
 * means). A shard whose read finds nothing left below an unreleased resharding cutover waits in
 * {@link ShardPhase#AT_CUTOVER}, polling its routing hash ({@link ShardAction.PollCutover}) until the group's barrier
 * is released; the read behind a wake-up read is claimed and landed here ({@link ReadBehind}).
 * See docs/architecture.md, "A record's way through the code".
 *
 * <p>Member context only; not thread-safe, except {@link #view} (any thread).
 */
final class ShardMachine {

    private static final Logger LOG = LoggerFactory.getLogger(ShardMachine.class);

    final String memberId;
    final ConsumerSettings settings;
    final MemberLease lease;
    final ConsumptionMetrics metrics;
    final LongSupplier nanoClock;
    private final HandlerContext handlerContext;
    final ShardScheduler scheduler;
    private final ShardOutcomes outcomes;
    private final Map<ShardId, OwnedShard> shards = new TreeMap<>();
    private final Map<ShardId, ShardPhase> view = new ConcurrentHashMap<>();
    /** The decisions of the event being handled. */
    private List<ShardAction> out = new ArrayList<>(4);
    private boolean memberPaused;
    private boolean closed;

    ShardMachine(HandlerContext handlerContext, ConsumerSettings settings, MemberLease lease, ConsumptionMetrics metrics,
                 LongSupplier nanoClock, ShardTimers timers) {
        this.memberId = handlerContext.memberId();
        this.handlerContext = handlerContext;
        this.settings = settings;
        this.lease = lease;
        this.metrics = metrics;
        this.nanoClock = nanoClock;
        this.scheduler = new ShardScheduler(this, timers);
        this.outcomes = new ShardOutcomes(this);
    }

    // ---- requests of the member ----

    /**
     * Takes {@code shard} under {@code ownerEpoch}: {@code onAssigned}, then takeover, replay, reads. The same epoch
     * again does nothing.
     *
     * @throws IllegalStateException when the shard is still owned under another epoch
     */
    List<ShardAction> acquire(ShardId shard, long ownerEpoch) {
        OwnedShard existing = shards.get(shard);
        if (existing != null && existing.phase().active()) {
            if (existing.ownerEpoch() == ownerEpoch) {
                return done();
            }
            throw new IllegalStateException("shard " + shard + " is still owned under epoch " + existing.ownerEpoch()
                    + "; release it before acquiring it under epoch " + ownerEpoch);
        }
        OwnedShard s = new OwnedShard(new Fence(shard, settings.group(), memberId, ownerEpoch), handlerContext);
        shards.put(shard, s);
        view.put(shard, s.phase());
        emit(new ShardAction.Assign(s));
        return done();
    }

    /** {@code onAssigned} returned (or threw): the shard may start its first step. */
    List<ShardAction> assigned(OwnedShard s) {
        if (!s.phase().active()) {
            activity(s, ShardActivity.DONE, "stopped while onAssigned ran");
            return done();
        }
        activity(s, ShardActivity.PARKED, "onAssigned returned");
        if (s.phase() == ShardPhase.RELEASING) {
            maybeFinishRelease(s);
        }
        scheduler.schedule(s);
        return done();
    }

    /**
     * Gives the shard up: no more reads; the batch in flight is finished or abandoned ({@link ConsumerSettings#releaseMode()}),
     * then {@link ShardAction.Revoke}. Not owned, or releasing already: nothing.
     */
    List<ShardAction> release(ShardId shard) {
        OwnedShard s = shards.get(shard);
        if (s == null || !s.phase().active() || s.phase() == ShardPhase.RELEASING) {
            return done();
        }
        scheduler.unschedule(s);
        phase(s, ShardPhase.RELEASING, "released by the member");
        if (!maybeFinishRelease(s) && settings.releaseMode() == ConsumerSettings.ReleaseMode.FINISH) {
            scheduler.schedule(s); // finish the batch in flight (a no-op while a step or a timer is pending)
        }
        return done();
    }

    /** Self-fencing: every shard stops at once; nothing more is read or acknowledged. */
    List<ShardAction> fenceAll() {
        for (OwnedShard s : new ArrayList<>(shards.values())) {
            fence(s, "member fenced itself");
        }
        return done();
    }

    /** Stops reading one shard (the batch in flight finishes; a held acknowledgement is sent now). */
    List<ShardAction> pause(ShardId shard) {
        OwnedShard s = shards.get(shard);
        if (s != null) {
            s.paused = true;
            scheduler.unschedule(s);
            scheduler.schedule(s);
        }
        return done();
    }

    /** Resumes a paused shard. */
    List<ShardAction> resume(ShardId shard) {
        OwnedShard s = shards.get(shard);
        if (s != null && s.paused) {
            s.paused = false;
            scheduler.schedule(s);
        }
        return done();
    }

    /** Pauses ({@code true}) or resumes the whole member; a shard paused on its own stays paused. */
    List<ShardAction> pauseMember(boolean paused) {
        memberPaused = paused;
        for (OwnedShard s : new ArrayList<>(shards.values())) {
            if (paused) {
                scheduler.unschedule(s);
            }
            scheduler.schedule(s);
        }
        return done();
    }

    /** No more steps except those finishing a release (the member is closing). */
    List<ShardAction> close() {
        closed = true;
        return done();
    }

    // ---- timers and wake-ups ----

    /** The timer {@code id} of {@code s} fired. */
    List<ShardAction> timerFired(OwnedShard s, ShardTimers.Kind kind, long id) {
        scheduler.timerFired(s, kind, id);
        return done();
    }

    /** New entries came on {@code shard} while it waited on a wake-up connection. */
    List<ShardAction> woken(ShardId shard) {
        OwnedShard s = shards.get(shard);
        if (s != null && s.phase().active() && s.phase() != ShardPhase.AT_CUTOVER) {
            if (s.activity().idle()) {
                scheduler.wake(s);
            } else {
                s.rereadOnEmpty = true; // still on the wake-up connection after its linger ran out
            }
        }
        return done();
    }

    /**
     * Claims {@code shard} for the read behind the next wake-up read ({@link ReadBehind}): only an idle shard reading
     * new entries, not claimed already; null otherwise. Until {@link #behindLanded} the shard reads nothing else.
     */
    OwnedShard claimReadBehind(ShardId shard) {
        OwnedShard s = shards.get(shard);
        if (s == null || s.phase() != ShardPhase.READING || !s.activity().idle() || s.behindInFlight) {
            return null;
        }
        s.behindInFlight = true;
        return s;
    }

    /**
     * The read behind a wake-up read landed for {@code s} with {@code outcome} (null: unknown). The wake-up loop lands
     * each claim once; a landing for a shard not claimed (a broken invariant there) is taken as out of turn.
     */
    List<ShardAction> behindLanded(OwnedShard s, ReadBehind.Outcome outcome) {
        boolean claimed = s.behindInFlight;
        s.behindInFlight = false;
        if (s.phase().active()) {
            outcomes.behindLanded(s, outcome, claimed);
        }
        return done();
    }

    /**
     * The leader released barriers of {@code stream} for this member's group (a hint, docs/protocol.md section 8b):
     * every shard of the stream waiting for its next cutover poll polls now. The poll decides; a lost hint costs one
     * poll interval.
     */
    List<ShardAction> barrierReleased(String stream) {
        shards.values().forEach(s -> {
            if (s.phase() == ShardPhase.AT_CUTOVER && s.shard().stream().equals(stream)) {
                scheduler.endWait(s, "the leader released a barrier of the stream");
            }
        });
        return done();
    }

    /**
     * The leader's watch hint: the group waits for this member's shards of {@code stream} in {@code cutovers} (by
     * index) to be acknowledged up to those cutovers; each reports it ({@link ShardAction.Drained}) when it does, or at
     * once when it did already. Shards of the stream not named stop watching.
     */
    List<ShardAction> watchDrain(String stream, Map<Integer, String> cutovers) {
        shards.values().forEach(s -> {
            if (s.shard().stream().equals(stream) && s.phase().active()) {
                String cut = cutovers.get(s.shard().index());
                s.drainWatch = cut == null || "0-0".equals(cut) ? null : cut;
                outcomes.maybeDrained(s);
            }
        });
        return done();
    }

    // ---- results of calls (decided in ShardOutcomes) ----

    List<ShardAction> takeoverDone(OwnedShard s, ShardCommands.TakeoverPage page) {
        outcomes.takeoverDone(s, page);
        return done();
    }

    List<ShardAction> readDone(OwnedShard s, boolean replay, ShardCommands.ReadResult page) {
        outcomes.readDone(s, replay, page);
        return done();
    }

    /** The handler call for {@code records} returned; {@code error} is null on success. */
    List<ShardAction> handled(OwnedShard s, List<StreamRecord> records, long startedNanos, Throwable error) {
        scheduler.handlerReturned(s);
        outcomes.handled(s, records, startedNanos, error);
        return done();
    }

    /** The poll of a shard waiting at a cutover returned: {@code released} when the group's barrier passed it. */
    List<ShardAction> cutoverPolled(OwnedShard s, boolean released) {
        outcomes.cutoverPolled(s, released);
        return done();
    }

    List<ShardAction> acked(OwnedShard s) {
        outcomes.acked(s);
        return done();
    }

    List<ShardAction> ackAndReadDone(OwnedShard s, ShardCommands.ReadResult page) {
        outcomes.ackAndReadDone(s, page);
        return done();
    }

    /** The dead-letter write of {@code record} succeeded ({@code error} null, {@code entryId} its id) or failed. */
    List<ShardAction> deadLettered(OwnedShard s, StreamRecord record, String entryId, Throwable error) {
        outcomes.deadLettered(s, record, entryId, error);
        return done();
    }

    /** A Redis call of the shard failed; {@code readNew}: it was a read of new entries (its outcome is unknown). */
    List<ShardAction> redisFailed(OwnedShard s, Throwable error, boolean readNew) {
        outcomes.redisFailed(s, error, readNew);
        return done();
    }

    /** The consumer group was created again ({@code error} null) or not. */
    List<ShardAction> groupEnsured(OwnedShard s, Throwable error) {
        outcomes.backoff(s, error);
        return done();
    }

    // ---- views (any thread) ----

    /** The shard owned now under this id, or null. Member context. */
    OwnedShard shard(ShardId shard) {
        return shards.get(shard);
    }

    /** The phase view: owned shards (not yet released or fenced) and their phases. Any thread. */
    Map<ShardId, ShardPhase> view() {
        return view;
    }

    /** The shards waiting at a resharding cutover now: the epoch each waits at. Member context. */
    Map<ShardId, Long> atCutover() {
        Map<ShardId, Long> out = new TreeMap<>();
        shards.forEach((id, s) -> {
            if (s.phase() == ShardPhase.AT_CUTOVER) {
                out.put(id, s.cutoverEpoch);
            }
        });
        return out;
    }

    /** Whether the whole member is paused ({@link #pauseMember}). */
    boolean memberPaused() {
        return memberPaused;
    }

    /** Whether the member is closing ({@link #close}). */
    boolean closed() {
        return closed;
    }

    /** Local workers in use now. */
    int busyWorkers() {
        return scheduler.busyWorkers();
    }

    // ---- the step: one decision for one shard ----

    /** The shard's next step, started by the {@link ShardScheduler}. */
    void step(OwnedShard s) {
        if (!lease.valid()) {
            outcomes.leaseLapsed(s, "read or handle");
        } else if (acksFirst(s)) {
            if (s.batch == null && readsOn(s)) {
                outcomes.ackAndRead(s); // a lingering acknowledgement goes with the next read
            } else {
                outcomes.ack(s);
            }
        } else if (s.batch != null && s.batch.deadLetterDue()) {
            outcomes.deadLetter(s);
        } else if (s.batch != null) {
            BatchRun batch = s.batch;
            batch.markStarted();
            emit(new ShardAction.Handle(s, batch.current()));
        } else if (s.phase() == ShardPhase.TAKING_OVER) {
            emit(new ShardAction.Takeover(s, s.cursor));
        } else if (s.phase() == ShardPhase.REPLAYING) {
            emit(new ShardAction.Read(s, s.cursor, false));
        } else if (s.phase() == ShardPhase.READING) {
            emit(new ShardAction.Read(s, ">", s.keepingUp));
        } else if (s.phase() == ShardPhase.AT_CUTOVER) {
            emit(new ShardAction.PollCutover(s, s.cutoverEpoch));
        } else {
            scheduler.finish(s, ShardScheduler.Next.STOP, 0);
        }
    }

    /**
     * Whether the acknowledgement the shard holds goes before its batch: always, except before a batch read behind a
     * wake-up read and not yet started while the shard reads on; that batch is handled first and the held ids go with
     * the acknowledgement of its records (one call less on a record's way).
     */
    boolean acksFirst(OwnedShard s) {
        return !s.unacked.isEmpty() && (s.batch == null || s.batch.started() || !readsOn(s));
    }

    /** Whether the shard reads on after this step: reading new entries and paused neither alone nor with its member. */
    boolean readsOn(OwnedShard s) {
        return s.phase() == ShardPhase.READING && !s.paused && !memberPaused;
    }

    // ---- terminal transitions ----

    /** Completes the release when nothing is in flight (or the batch is abandoned); true when it did. */
    boolean maybeFinishRelease(OwnedShard s) {
        boolean drained = (s.batch == null || !s.batch.started()) && s.unacked.isEmpty();
        boolean abandon = settings.releaseMode() == ConsumerSettings.ReleaseMode.ABANDON;
        if (!abandon && !(drained && !s.activity().inFlight())) {
            return false;
        }
        if (!drained) {
            LOG.info("member {} shard {}: abandoning the batch in flight; the next owner takes it over", memberId, s.shard());
        }
        scheduler.cancelTimer(s);
        s.batch = null; // a batch only read ahead stays pending in Redis for the next owner's takeover
        stop(s, ShardPhase.RELEASED, drained ? "in-flight batch finished" : "in-flight batch abandoned");
        emit(new ShardAction.Revoke(s));
        return true;
    }

    /** Stops the shard at once (FENCED): no more reads or acks; {@code onRevoked} is called. */
    void fence(OwnedShard s, String reason) {
        if (!s.phase().active()) {
            return;
        }
        scheduler.unschedule(s);
        scheduler.cancelTimer(s);
        stop(s, ShardPhase.FENCED, reason);
        metrics.fenced();
        emit(new ShardAction.Fenced(s, reason));
        emit(new ShardAction.Revoke(s));
    }

    private void stop(OwnedShard s, ShardPhase terminal, String reason) {
        if (s.activity() == ShardActivity.QUEUED || s.activity().idle()) {
            scheduler.unschedule(s);
        }
        if (s.activity() == ShardActivity.WAITING) {
            activity(s, ShardActivity.PARKED, "timer cancelled");
        }
        s.transition(terminal, s.activity().inFlight() ? s.activity() : ShardActivity.DONE, reason);
        if (shards.get(s.shard()) == s) {
            shards.remove(s.shard());
            view.remove(s.shard());
        }
    }

    // ---- the gate and the decisions ----

    void phase(OwnedShard s, ShardPhase next, String reason) {
        s.transition(next, s.activity(), reason);
        if (shards.get(s.shard()) == s && next.active()) {
            view.put(s.shard(), next);
        }
    }

    private void activity(OwnedShard s, ShardActivity next, String reason) {
        s.transition(s.phase(), next, reason);
    }

    void emit(ShardAction action) {
        out.add(action);
    }

    private List<ShardAction> done() {
        List<ShardAction> actions = out;
        out = new ArrayList<>(4);
        return actions;
    }
}
