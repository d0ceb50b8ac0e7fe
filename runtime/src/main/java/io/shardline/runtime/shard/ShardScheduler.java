package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardId;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;

/**
 * The scheduler of one member's shards ({@link MemberShards} is its API): the FIFO ready queue of shards with a
 * batch for the handler and the {@code max.concurrency} local workers that run those handler calls; the Redis steps
 * (read, ack, takeover, dead letter), which start at once and hold no worker; idling on the wake-up connections
 * ({@link WakeUps}) and the ack-linger timers; retry timers; and the {@link ReadPriority} of keeping-up reads over
 * a backlogged shard's next fenced ack-and-read. {@link ShardSteps} runs the steps and reports the end of each
 * through {@link #finish}.
 *
 * <p>Member context only; not thread-safe.
 */
final class ShardScheduler implements ShardSteps.Scheduler {

    /** The member's shard map, as the scheduler sees it. */
    interface Shards {
        /** The shard owned now under this id, or null. */
        OwnedShard get(ShardId shard);

        /** Moves the shard to {@code next} and updates the member's phase view. */
        void transition(OwnedShard s, ShardPhase next, String reason);

        /** Drops the shard from the member's shard map and phase view (if it is still the current one). */
        void forget(OwnedShard s);
    }

    private final Vertx vertx;
    private final ConsumerSettings settings;
    private final Shards shards;
    private final WakeUps wakeUp;
    private final ReadPriority readPriority = new ReadPriority();
    private ShardSteps steps;
    /** Shards with a batch to hand to the handler, waiting for a local worker (FIFO: round-robin). */
    private final ArrayDeque<OwnedShard> ready = new ArrayDeque<>();
    /** Shards whose next step is a Redis call (read, ack, takeover, dead letter): they need no worker. */
    private final ArrayDeque<OwnedShard> redisSteps = new ArrayDeque<>();
    /** Local workers in use: handler calls running now (at most {@code max.concurrency}). */
    private int busy;
    private boolean pumping;
    private boolean memberPaused;
    private boolean closed;

    ShardScheduler(Vertx vertx, Context context, ShardRedis redis, ConsumerSettings settings, Shards shards) {
        this.vertx = vertx;
        this.settings = settings;
        this.shards = shards;
        this.wakeUp = new WakeUps(redis, context, settings.wakeUpBlockMs(), this::woken);
    }

    /** The step machine this scheduler hands shards to (it is built with this scheduler, hence after it). */
    void bind(ShardSteps steps) {
        this.steps = steps;
    }

    /** Pauses or resumes the whole member (a shard still sends a lingering acknowledgement while paused). */
    void pauseMember(boolean paused) {
        memberPaused = paused;
    }

    /** No more steps except those finishing a release; closes the wake-up connections. */
    Future<Void> close() {
        closed = true;
        return wakeUp.close();
    }


    private boolean runnable(OwnedShard s) {
        if (closed && s.phase() != ShardPhase.RELEASING) {
            return false;
        }
        return switch (s.phase()) {
            // a paused shard still sends the acknowledgement it holds (ack linger), then stops
            case TAKING_OVER, REPLAYING, READING -> !s.paused && !memberPaused || !s.unacked.isEmpty();
            case RELEASING -> settings.releaseMode() == ConsumerSettings.ReleaseMode.FINISH
                    && (s.batch != null && s.batch.started() || !s.unacked.isEmpty());
            default -> false;
        };
    }

    /** Queues the shard for its next step if it has one and is not stepping, idle or waiting on a timer. */
    void schedule(OwnedShard s) {
        if (s.queued || s.stepping || s.idle || s.timerId >= 0 || !runnable(s)) {
            return;
        }
        s.queued = true;
        (needsWorker(s) ? ready : redisSteps).addLast(s);
        pump();
    }

    /** True when the shard's next step calls the handler (see {@link ShardSteps#step}): only that takes a worker. */
    private static boolean needsWorker(OwnedShard s) {
        return s.batch != null && s.unacked.isEmpty() && !s.batch.deadLetterDue();
    }

    /**
     * Starts every queued Redis step, and as many handler steps as there are free workers, the longest waiting first.
     * Steps that end at once (their {@code finish} comes back into {@link #schedule}) are picked up by the same loop.
     */
    private void pump() {
        if (pumping) {
            return;
        }
        pumping = true;
        try {
            boolean started = true;
            while (started) {
                started = false;
                while (!redisSteps.isEmpty()) {
                    started |= start(redisSteps.pollFirst(), false);
                }
                while (busy < settings.maxConcurrency() && !ready.isEmpty()) {
                    started |= start(ready.pollFirst(), true);
                }
            }
        } finally {
            pumping = false;
        }
    }

    private boolean start(OwnedShard s, boolean worker) {
        s.queued = false;
        if (!runnable(s)) {
            return false;
        }
        if (worker) {
            busy++;
            s.holdsWorker = true;
        }
        s.stepping = true;
        if (!worker && s.keepingUp && s.phase() == ShardPhase.READING) {
            s.readTicket = readPriority.started(); // a read (or ack-and-read) on its records' latency path
        }
        steps.step(s);
        return true;
    }

    /** The shard's handler call is over: its worker goes to the next shard waiting (its ack goes on without one). */
    @Override
    public void workerDone(OwnedShard s) {
        if (s.holdsWorker) {
            s.holdsWorker = false;
            busy--;
            pump();
        }
    }

    private void dequeue(OwnedShard s) {
        if (s.queued) {
            ready.remove(s);
            redisSteps.remove(s);
            s.queued = false;
        }
    }

    private void finishStep(OwnedShard s, ShardSteps.Next next, long delayMs) {
        if (s.readTicket >= 0) {
            long ticket = s.readTicket;
            s.readTicket = -1;
            readPriority.ended(ticket);
        }
        if (s.holdsWorker) {
            s.holdsWorker = false;
            busy--;
        }
        s.stepping = false;
        if (s.phase() == ShardPhase.RELEASING) {
            steps.maybeFinishRelease(s);
        }
        if (s.phase().active()) {
            switch (next) {
                case AGAIN -> schedule(s);
                case IDLE, LINGER -> park(s, next == ShardSteps.Next.LINGER);
                case WAIT -> s.timerId = vertx.setTimer(Math.max(1, delayMs), id -> {
                    s.timerId = -1;
                    schedule(s);
                });
                case STOP -> { }
            }
        }
        pump();
    }

    /**
     * The shard read nothing new: it waits on its wake-up connection, holding its last batch's acknowledgement if it
     * {@code lingers} (until its next read or the linger timer). Woken while it read, it reads again instead (what woke
     * it may have come after that read); paused or released meanwhile, it sends a held acknowledgement now.
     */
    private void park(OwnedShard s, boolean lingers) {
        if (s.rereadOnEmpty) {
            s.rereadOnEmpty = false;
            schedule(s);
        } else if (s.phase() == ShardPhase.READING && !s.paused && !memberPaused && !closed) {
            s.idle = true;
            wakeUp.add(s.shard(), s.wakeId);
            if (lingers) {
                s.lingerTimerId = vertx.setTimer(settings.ackLingerMs(), id -> lingerOver(s));
            }
        } else if (lingers) {
            schedule(s);
        }
    }

    private void woken(ShardId shard) {
        OwnedShard s = shards.get(shard);
        if (s == null || !s.phase().active()) {
            return;
        }
        if (s.idle) {
            s.idle = false;
            cancelLinger(s);
            schedule(s);
        } else {
            s.rereadOnEmpty = true; // still on the wake-up connection after its linger ran out
        }
    }

    /**
     * The ack linger of an idle shard ran out: it acknowledges (and looks again) now. It stays on its wake-up
     * connection meanwhile, so that going idle again needs no interrupt; a wake-up in between makes it read again.
     */
    private void lingerOver(OwnedShard s) {
        s.lingerTimerId = -1;
        if (s.idle) {
            s.idle = false;
            schedule(s);
        }
    }

    private void cancelLinger(OwnedShard s) {
        if (s.lingerTimerId >= 0) {
            vertx.cancelTimer(s.lingerTimerId);
            s.lingerTimerId = -1;
        }
    }

    /** Takes the shard off the wake-up connections (it may be there after its linger ran out, without being idle). */
    private void unidle(OwnedShard s) {
        s.idle = false;
        cancelLinger(s);
        wakeUp.remove(s.shard());
    }

    // ---- what the steps may do (ShardSteps.Scheduler) ----

    @Override
    public void finish(OwnedShard s, ShardSteps.Next next, long delayMs) {
        finishStep(s, next, delayMs);
    }

    @Override
    public boolean memberPaused() {
        return memberPaused;
    }

    @Override
    public void transition(OwnedShard s, ShardPhase next, String reason) {
        shards.transition(s, next, reason);
    }

    /** Takes the shard out of the ready queues and off the wake-up connections (and cancels its ack linger). */
    @Override
    public void unschedule(OwnedShard s) {
        dequeue(s);
        unidle(s);
    }

    @Override
    public void afterKeepingUpReads(Runnable call) {
        readPriority.afterReadsInFlight(call);
    }

    @Override
    public void forget(OwnedShard s) {
        shards.forget(s);
    }
}
