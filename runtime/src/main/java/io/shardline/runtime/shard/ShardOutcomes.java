package io.shardline.runtime.shard;

import io.shardline.api.handler.StreamRecord;
import java.util.ArrayList;
import io.shardline.runtime.redis.StreamIds;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the result of a shard's call means, for its {@link ShardMachine}: the next phase (takeover swept, pending
 * list replayed, a read whose outcome is unknown), the batch and held acknowledgement, handler retries, splits and
 * dead letters, the Redis error backoff and fencing, and the lease checks before every handler call and
 * acknowledgement. Each method ends the shard's step with exactly one {@link ShardScheduler#finish} or emits the
 * shard's next call ({@link ShardAction}). Part of the machine: no I/O, member context only.
 */
final class ShardOutcomes {

    private static final Logger LOG = LoggerFactory.getLogger(ShardOutcomes.class);
    /**
     * How often a shard whose member's lease ran out looks again: the member's heartbeat loop fences the whole member
     * within its poll interval (then this shard stops for good); until then the shard handles and acknowledges
     * nothing, and goes on only if the lease turns out valid again (a lapse seen just before an extension landed).
     */
    static final long LEASE_RECHECK_MS = 50;

    private final ShardMachine m;
    private final ShardScheduler sched;
    private final ConsumerSettings settings;

    ShardOutcomes(ShardMachine machine) {
        this.m = machine;
        this.sched = machine.scheduler;
        this.settings = machine.settings;
    }

    void takeoverDone(OwnedShard s, ShardCommands.TakeoverPage page) {
        s.redisFailures = 0;
        if (s.phase() != ShardPhase.TAKING_OVER) {
            sched.finish(s, ShardScheduler.Next.STOP, 0);
            return;
        }
        if (page.done()) {
            s.cursor = "0";
            m.phase(s, ShardPhase.REPLAYING, "takeover sweep complete");
        } else {
            s.cursor = page.nextCursor();
        }
        sched.finish(s, ShardScheduler.Next.AGAIN, 0);
    }

    void readDone(OwnedShard s, boolean replay, ShardCommands.ReadResult page) {
        s.redisFailures = 0;
        if (!s.phase().active()) {
            sched.finish(s, ShardScheduler.Next.STOP, 0);
            return;
        }
        if (replay && s.phase() == ShardPhase.REPLAYING) {
            if (page.records().isEmpty() && page.cursor().isEmpty()) {
                m.phase(s, ShardPhase.READING, "pending entries handled");
                sched.finish(s, ShardScheduler.Next.AGAIN, 0);
                return;
            }
            s.cursor = page.cursor();
        } else {
            if (page.waiting()) {
                waitAtCutover(s, page.waitingEpoch());
                return;
            }
            if (!replay) {
                s.keepingUp = page.records().size() <= ShardCommands.smallRead(settings.batchSize());
            }
            if (page.records().isEmpty()) {
                s.wakeId = page.cursor();
                sched.finish(s, ShardScheduler.Next.IDLE, 0);
                return;
            }
        }
        if (!page.records().isEmpty()) {
            s.batch = new BatchRun(page.records(), settings.maxDeliveries()); // handled when a local worker is free (and not paused)
        }
        sched.finish(s, ShardScheduler.Next.AGAIN, 0);
    }

    /**
     * Redis answered that nothing is left at or below the cutover of routing epoch {@code epoch} that the group's
     * barrier on this shard has not passed (docs/protocol.md section 8b, "The read rule"): a reading shard stops
     * there and polls its routing hash every {@code cutoverPollMs} until the barrier is released.
     */
    private void waitAtCutover(OwnedShard s, long epoch) {
        if (s.phase() != ShardPhase.READING) {
            sched.finish(s, ShardScheduler.Next.IDLE, 0); // releasing: nothing more to read
            return;
        }
        s.cutoverEpoch = epoch;
        s.cutoverSinceNanos = m.nanoClock.getAsLong();
        s.rereadOnEmpty = false;
        m.emit(new ShardAction.Unwatch(s.shard())); // entries after the cutover do not concern it until released
        m.phase(s, ShardPhase.AT_CUTOVER, "read everything up to the cutover of routing epoch " + epoch
                + "; waits until the group's barrier there is released");
        sched.finish(s, ShardScheduler.Next.WAIT, settings.cutoverPollMs());
    }

    /** The poll of a shard waiting at a cutover returned: it reads again once the barrier is released. */
    void cutoverPolled(OwnedShard s, boolean released) {
        s.redisFailures = 0;
        if (s.phase() != ShardPhase.AT_CUTOVER) {
            sched.finish(s, ShardScheduler.Next.STOP, 0);
            return;
        }
        if (!released) {
            sched.finish(s, ShardScheduler.Next.WAIT, settings.cutoverPollMs());
            return;
        }
        long waitedMs = (m.nanoClock.getAsLong() - s.cutoverSinceNanos) / 1_000_000;
        m.phase(s, ShardPhase.READING, "the group's barrier at the cutover of routing epoch " + s.cutoverEpoch
                + " was released after " + waitedMs + " ms");
        s.cutoverEpoch = 0;
        sched.finish(s, ShardScheduler.Next.AGAIN, 0);
    }

    void handled(OwnedShard s, List<StreamRecord> records, long startedNanos, Throwable error) {
        if (!s.phase().active()) {
            sched.finish(s, ShardScheduler.Next.STOP, 0); // fenced or abandoned meanwhile: no ack
            return;
        }
        if (error instanceof LeaseLapsedException) {
            leaseLapsed(s, "handle " + records.size() + " record(s) from " + records.get(0).entryId());
            return;
        }
        BatchRun batch = s.batch;
        if (error == null) {
            m.metrics.handled(records.size(), m.nanoClock.getAsLong() - startedNanos);
            batch.advance();
            boolean held = !s.unacked.isEmpty(); // a batch read behind a wake-up read went before them
            s.unacked = afterHeld(s.unacked, ids(records));
            if (!m.lease.valid()) {
                leaseLapsed(s, "acknowledge " + records.size() + " handled record(s)");
            } else if (batch.finished() && m.readsOn(s)) {
                if (lingers(s) && !held) { // held ones go now: a shard read behind every wake-up never lingers out
                    s.batch = null;
                    s.wakeId = records.get(records.size() - 1).entryId();
                    sched.finish(s, ShardScheduler.Next.LINGER, 0);
                } else {
                    ackAndRead(s);
                }
            } else {
                ack(s);
            }
            return;
        }
        m.metrics.failedAttempt();
        switch (batch.failed(error, settings.maxAttempts())) {
            case RETRY -> {
                long delay = settings.backoffMs(batch.attempt() - 1);
                LOG.warn("member {} shard {}: handler failed on {} record(s) from {} (attempt {} of {}), retrying in {} ms: {}",
                        m.memberId, s.shard(), records.size(), records.get(0).entryId(), batch.attempt() - 1,
                        settings.maxAttempts(), delay, error.toString());
                sched.finish(s, ShardScheduler.Next.WAIT, delay);
            }
            case SPLIT -> {
                LOG.warn("member {} shard {}: batch of {} failed {} time(s); handling its records one by one: {}",
                        m.memberId, s.shard(), records.size(), settings.maxAttempts(), error.toString());
                sched.finish(s, ShardScheduler.Next.AGAIN, 0); // the first record alone, on the next free worker
            }
            case DEAD_LETTER -> {
                batch.markDeadLetterDue();
                deadLetter(s);
            }
        }
    }

    /**
     * Whether the acknowledgement of the batch just handled waits for the shard's next read: only for a shard that
     * keeps up (its last read was small, so the next one is likely soon and small) and only when a release finishes
     * the batch in flight (an abandoning release would leave the handled records to the next owner).
     */
    private boolean lingers(OwnedShard s) {
        return settings.ackLingerMs() > 0 && s.keepingUp && settings.releaseMode() == ConsumerSettings.ReleaseMode.FINISH;
    }

    void deadLetter(OwnedShard s) {
        if (!m.lease.valid()) {
            leaseLapsed(s, "dead-letter a record");
            return;
        }
        BatchRun batch = s.batch;
        m.emit(new ShardAction.DeadLetter(s, batch.current().get(0), batch.attemptsMade(),
                batch.poison() ? null : batch.lastError()));
    }

    void deadLettered(OwnedShard s, StreamRecord record, String entryId, Throwable error) {
        if (error != null && ShardFailure.permanent(error) && s.phase().active()) {
            deadLetterFailed(s, record, error);
            return;
        }
        if (error != null) {
            redisFailed(s, error, false);
            return;
        }
        BatchRun batch = s.batch;
        if (batch == null || !s.phase().active()) {
            LOG.warn("member {} shard {}: record {} written to dead-letter stream {} as {}; the shard stopped meanwhile, "
                    + "so it is not acknowledged (its next owner handles it again)", m.memberId, s.shard(),
                    record.entryId(), settings.deadLetterStream(), entryId);
            m.metrics.deadLettered();
            sched.finish(s, ShardScheduler.Next.STOP, 0);
            return;
        }
        LOG.error("member {} shard {}: record {} failed {} attempt(s) (delivery {}); written to dead-letter stream {} as {}: {}",
                m.memberId, s.shard(), record.entryId(), batch.attemptsMade(), record.deliveryCount(),
                settings.deadLetterStream(), entryId, batch.poison() ? "max.deliveries reached"
                        : DeadLetterWriter.describe(batch.lastError()));
        m.metrics.deadLettered();
        batch.advance();
        s.unacked = afterHeld(s.unacked, List.of(record.entryId()));
        ack(s); // checks the lease first
    }

    /**
     * The dead-letter write failed for good: the shard stops (no retry loop), its batch is dropped (the records stay
     * pending in Redis, so nothing is lost: the next owner, or this one after a restart, takes them over) and the
     * listener is reported FAILED with the reason.
     */
    private void deadLetterFailed(OwnedShard s, StreamRecord record, Throwable error) {
        m.metrics.redisError();
        String reason = "shard " + s.shard() + ": cannot write record " + record.entryId() + " to the dead-letter "
                + "stream " + settings.deadLetterStream() + " (" + error.getMessage() + "); the shard stopped and its "
                + "unacknowledged records stay pending: fix the key or dead.letter.stream, then restart the listener";
        LOG.error("member {} {}", m.memberId, reason);
        s.batch = null;
        m.emit(new ShardAction.Failed(s, reason));
        sched.finish(s, ShardScheduler.Next.STOP, 0);
    }

    void ack(OwnedShard s) {
        if (!s.phase().active()) {
            sched.finish(s, ShardScheduler.Next.STOP, 0);
            return;
        }
        if (!m.lease.valid()) {
            leaseLapsed(s, "acknowledge " + s.unacked.size() + " handled record(s)");
            return;
        }
        m.emit(new ShardAction.Ack(s, s.unacked));
    }

    void acked(OwnedShard s) {
        s.redisFailures = 0;
        noteAcked(s);
        s.unacked = List.of();
        if (s.batch != null && s.batch.finished()) {
            s.batch = null;
        }
        sched.finish(s, ShardScheduler.Next.AGAIN, 0);
    }

    /**
     * The acknowledgement of {@code s.unacked} went through (they are in shard order): the highest id acknowledged
     * rises, and a watched cutover it reaches is reported to the leader once (docs/protocol.md section 8b).
     */
    private void noteAcked(OwnedShard s) {
        if (s.unacked.isEmpty()) {
            return;
        }
        String last = s.unacked.get(s.unacked.size() - 1);
        if (s.lastAcked == null || StreamIds.compare(last, s.lastAcked) > 0) {
            s.lastAcked = last;
        }
        maybeDrained(s);
    }

    /** Reports the shard drained to its watched cutover when its acknowledgements reached it. */
    void maybeDrained(OwnedShard s) {
        if (s.drainWatch != null && s.lastAcked != null && StreamIds.compare(s.lastAcked, s.drainWatch) >= 0) {
            s.drainWatch = null;
            m.emit(new ShardAction.Drained(s));
        }
    }

    /** The hot path: acknowledge the batch just handled and read the next one in one call. */
    void ackAndRead(OwnedShard s) {
        if (s.keepingUp) {
            ackAndReadNow(s);
        } else {
            sched.afterKeepingUpReads(() -> ackAndReadNow(s)); // a full batch: keeping-up shards' reads first
        }
    }

    private void ackAndReadNow(OwnedShard s) {
        if (!s.phase().active()) {
            sched.finish(s, ShardScheduler.Next.STOP, 0);
            return;
        }
        if (s.phase() != ShardPhase.READING) {
            ack(s); // released while it waited: acknowledge only, no read-ahead
            return;
        }
        if (!m.lease.valid()) {
            leaseLapsed(s, "acknowledge " + s.unacked.size() + " handled record(s)");
            return;
        }
        m.emit(new ShardAction.AckAndRead(s, s.unacked, s.keepingUp));
    }

    void ackAndReadDone(OwnedShard s, ShardCommands.ReadResult page) {
        s.redisFailures = 0;
        noteAcked(s);
        s.unacked = List.of();
        s.batch = null;
        if (!s.phase().active()) {
            sched.finish(s, ShardScheduler.Next.STOP, 0);
            return;
        }
        if (page.waiting()) {
            waitAtCutover(s, page.waitingEpoch());
            return;
        }
        s.keepingUp = page.records().size() <= ShardCommands.smallRead(settings.batchSize());
        if (page.records().isEmpty()) {
            s.wakeId = page.cursor();
            sched.finish(s, ShardScheduler.Next.IDLE, 0);
        } else {
            s.batch = new BatchRun(page.records(), settings.maxDeliveries()); // read ahead; handled when the shard's turn comes again
            sched.finish(s, ShardScheduler.Next.AGAIN, 0);
        }
    }

    /**
     * The member's lease ran out: {@code what} is not done. The batch in flight (or the handled, unacknowledged ids)
     * stays as it is, and so do the records in Redis (pending, for the next owner's takeover); the shard looks again
     * after {@link #LEASE_RECHECK_MS}, by when the member has normally fenced itself and dropped the shard.
     */
    void leaseLapsed(OwnedShard s, String what) {
        if (!s.leaseLapsed) {
            s.leaseLapsed = true;
            LOG.warn("member {} shard {} epoch {}: not going to {}: the member's lease ran out ({}); the records stay "
                    + "pending for the next owner", m.memberId, s.shard(), s.ownerEpoch(), what, m.lease);
        }
        sched.finish(s, ShardScheduler.Next.WAIT, LEASE_RECHECK_MS);
    }

    /**
     * A Redis call failed. {@code readNew}: it was a read of new entries ({@code >}); unless Redis refused it (fenced,
     * no group), its outcome is unknown: Redis may have run it and delivered entries to this member's pending list
     * whose reply was lost (a timeout, a dropped connection). Those would never come again from {@code >}, so the
     * shard replays its own pending entries first (from id 0), then reads new ones: at-least-once without a move.
     */
    void redisFailed(OwnedShard s, Throwable error, boolean readNew) {
        if (!s.phase().active()) {
            sched.finish(s, ShardScheduler.Next.STOP, 0);
            return;
        }
        ShardFailure failure = ShardFailure.of(error);
        if (readNew && s.phase() == ShardPhase.READING && failure != ShardFailure.FENCED
                && failure != ShardFailure.NO_GROUP) {
            s.cursor = "0";
            m.phase(s, ShardPhase.REPLAYING, "the outcome of a read is unknown (" + error.getMessage()
                    + "): its entries may be in this member's pending list");
        }
        m.metrics.redisError();
        switch (failure) {
            case FENCED -> {
                m.fence(s, error.getMessage());
                sched.finish(s, ShardScheduler.Next.STOP, 0);
            }
            case NO_GROUP -> {
                LOG.warn("member {} shard {}: consumer group {} is missing (Redis lost it?); creating it again at 0",
                        m.memberId, s.shard(), settings.group());
                m.emit(new ShardAction.EnsureGroup(s));
            }
            default -> backoff(s, error);
        }
    }

    void backoff(OwnedShard s, Throwable error) {
        if (error == null) {
            sched.finish(s, ShardScheduler.Next.AGAIN, 0);
            return;
        }
        s.redisFailures++;
        long delay = Math.min(settings.retryBackoffMaxMs(),
                Math.max(10L, settings.retryBackoffMs()) << Math.min(s.redisFailures - 1, 16));
        LOG.warn("member {} shard {}: Redis call failed ({} in a row), retrying in {} ms: {}",
                m.memberId, s.shard(), s.redisFailures, delay, error.toString());
        sched.finish(s, ShardScheduler.Next.WAIT, delay);
    }

    /**
     * The read behind a wake-up read landed ({@link ReadBehind}): records read become the shard's batch, handled before
     * the acknowledgement it holds (which then goes with theirs), but only while they are the shard's next records in
     * entry-id order: it was {@code claimed} for that read, still reads new entries and has no batch. Records read out
     * of that turn, or an unknown outcome, are in the member's pending list: a reading shard replays its pending
     * entries first, a replaying one reaches them at the end of its replay (they follow every entry it delivered).
     * Nothing new leaves an idle shard idle; anything else (a refusal, a cutover) wakes the shard to read by itself,
     * where it meets the same answer.
     */
    void behindLanded(OwnedShard s, ReadBehind.Outcome o, boolean claimed) {
        boolean inTurn = claimed && s.phase() == ShardPhase.READING && s.batch == null;
        if (!claimed) {
            LOG.warn("member {} shard {}: a read behind a wake-up read landed for a shard it had not claimed; what it "
                    + "read is replayed from the pending list", m.memberId, s.shard());
        }
        if (o == null || o.hasRecords() && !inTurn) {
            sched.leaveIdle(s);
            if (s.phase() == ShardPhase.READING) {
                s.cursor = "0";
                m.phase(s, ShardPhase.REPLAYING, o == null
                        ? "the outcome of the read behind a wake-up read is unknown: its entries may be in this "
                                + "member's pending list"
                        : "records read behind a wake-up read out of turn: they are in this member's pending list");
            }
        } else if (o.hasRecords()) {
            s.keepingUp = o.page().records().size() <= ShardCommands.smallRead(settings.batchSize());
            s.batch = new BatchRun(o.page().records(), settings.maxDeliveries());
        } else if (o == ReadBehind.Outcome.NOTHING && s.activity().idle()) {
            return; // still idle: the next wake-up read watches it again
        }
        sched.wake(s);
    }

    /** {@code ids} after the ids the shard still holds unacknowledged (a batch read behind a wake-up read went first). */
    private static List<String> afterHeld(List<String> held, List<String> ids) {
        if (held.isEmpty()) {
            return ids;
        }
        List<String> all = new ArrayList<>(held.size() + ids.size());
        all.addAll(held);
        all.addAll(ids);
        return all;
    }

    private static List<String> ids(List<StreamRecord> records) {
        List<String> ids = new ArrayList<>(records.size());
        records.forEach(r -> ids.add(r.entryId()));
        return ids;
    }
}
