package io.shardline.runtime.shard;

import java.util.ArrayDeque;

/**
 * When a member's shards take their steps, for its {@link ShardMachine}: the ready queues (a handler step waits for
 * one of the {@code max.concurrency} local workers, a Redis step needs none), the keeping-up reads' priority
 * ({@link ReadPriority}), and the waits between steps: idle on the wake-up connections, the ack linger and retry
 * timers (through the {@link ShardTimers} port, so tests run it under a manual clock). The machine decides what a
 * shard's step is ({@link ShardMachine#step}); this class decides when it runs and what the shard does after it
 * ({@link Next}). Part of the machine: no I/O, member context only. See docs/architecture.md, "A record's way through
 * the code".
 */
final class ShardScheduler {

    /** What a shard does after its step. */
    enum Next {
        /** Step again (queued at the tail). */
        AGAIN,
        /** Wait for new entries on the wake-up connections. */
        IDLE,
        /** As {@link #IDLE}, holding the acknowledgement of the batch just handled. */
        LINGER,
        /** Wait for a timer of {@code delayMs}. */
        WAIT,
        /** Nothing now (the shard stopped, or waits for a request of the member). */
        STOP
    }

    private final ShardMachine m;
    private final ConsumerSettings settings;
    private final ShardTimers timers;
    private final ReadPriority readPriority = new ReadPriority();
    /** Shards with a batch to hand to the handler, waiting for a local worker (FIFO: round-robin). */
    private final ArrayDeque<OwnedShard> ready = new ArrayDeque<>();
    /** Shards whose next step is a Redis call: they need no worker. */
    private final ArrayDeque<OwnedShard> redisSteps = new ArrayDeque<>();
    /** Local workers in use: handler calls running now (at most {@code max.concurrency}). */
    private int busy;
    private boolean pumping;

    ShardScheduler(ShardMachine machine, ShardTimers timers) {
        this.m = machine;
        this.settings = machine.settings;
        this.timers = timers;
    }

    /** Local workers in use now. */
    int busyWorkers() {
        return busy;
    }

    /** Runs {@code call} now, or once the keeping-up reads in flight now have returned ({@link ReadPriority}). */
    void afterKeepingUpReads(Runnable call) {
        readPriority.afterReadsInFlight(call);
    }

    // ---- queues and workers ----

    private boolean runnable(OwnedShard s) {
        if (m.closed() && s.phase() != ShardPhase.RELEASING || s.behindInFlight) {
            return false; // a claimed shard's read is in flight behind a wake-up read
        }
        return switch (s.phase()) {
            // a paused shard still sends the acknowledgement it holds (ack linger), then stops
            case TAKING_OVER, REPLAYING, READING, AT_CUTOVER -> !s.paused && !m.memberPaused() || !s.unacked.isEmpty();
            case RELEASING -> settings.releaseMode() == ConsumerSettings.ReleaseMode.FINISH
                    && (s.batch != null && s.batch.started() || !s.unacked.isEmpty());
            default -> false;
        };
    }

    /** Queues a {@link ShardActivity#PARKED} shard for its next step if it has one. */
    void schedule(OwnedShard s) {
        if (s.activity() != ShardActivity.PARKED || !runnable(s)) {
            return;
        }
        activity(s, ShardActivity.QUEUED, "has a step");
        (needsWorker(s) ? ready : redisSteps).addLast(s);
        pump();
    }

    /** True when the shard's next step calls the handler (see {@link ShardMachine#step}): only that takes a worker. */
    private boolean needsWorker(OwnedShard s) {
        return s.batch != null && !m.acksFirst(s) && !s.batch.deadLetterDue();
    }

    /** Starts every queued Redis step, and as many handler steps as there are free workers, the longest waiting first. */
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
        if (!runnable(s)) {
            activity(s, ShardActivity.PARKED, "nothing to do when its turn came");
            return false;
        }
        if (worker) {
            busy++;
            activity(s, ShardActivity.HANDLING, "a local worker is free");
        } else {
            activity(s, ShardActivity.STEPPING, "Redis step");
            if (s.keepingUp && s.phase() == ShardPhase.READING) {
                s.readTicket = readPriority.started(); // a read (or ack-and-read) on its records' latency path
            }
        }
        m.step(s);
        return true;
    }

    /** The handler call of {@code s} returned: its worker goes to the next shard waiting; the shard acknowledges without one. */
    void handlerReturned(OwnedShard s) {
        if (s.activity() == ShardActivity.HANDLING) {
            busy--;
            activity(s, ShardActivity.STEPPING, "handler returned");
            pump();
        }
    }

    /** The shard's step is over ({@link ShardActivity#STEPPING}, or {@code HANDLING} without a handler call): what next. */
    void finish(OwnedShard s, Next next, long delayMs) {
        if (s.activity() == ShardActivity.HANDLING) {
            busy--; // the step took a worker but did not call the handler (the lease had run out)
            activity(s, ShardActivity.STEPPING, "no handler call");
        }
        if (s.readTicket >= 0) {
            long ticket = s.readTicket;
            s.readTicket = -1;
            readPriority.ended(ticket);
        }
        if (!s.phase().active()) {
            activity(s, ShardActivity.DONE, "step ended after the shard stopped");
            pump();
            return;
        }
        activity(s, ShardActivity.PARKED, "step over");
        if (s.phase() == ShardPhase.RELEASING) {
            m.maybeFinishRelease(s);
        }
        if (s.phase().active()) {
            switch (next) {
                case AGAIN -> schedule(s);
                case IDLE, LINGER -> park(s, next == Next.LINGER);
                case WAIT -> {
                    activity(s, ShardActivity.WAITING, "waits for a timer");
                    s.timerId = timers.set(Math.max(1, delayMs), s, ShardTimers.Kind.RETRY);
                }
                case STOP -> { }
            }
        }
        pump();
    }

    /** Takes the shard out of the ready queues, off the wake-up connections and out of a retry wait. */
    void unschedule(OwnedShard s) {
        if (s.activity() == ShardActivity.QUEUED) {
            ready.remove(s);
            redisSteps.remove(s);
            activity(s, ShardActivity.PARKED, "taken out of the ready queue");
        }
        if (s.activity().idle()) {
            activity(s, ShardActivity.PARKED, "taken off the wake-up connections");
        }
        cancelLinger(s);
        m.emit(new ShardAction.Unwatch(s.shard()));
    }

    // ---- waits: idle, linger, timers ----

    /**
     * The shard read nothing new: it waits on its wake-up connection, holding its last batch's acknowledgement if it
     * {@code lingers}. Woken while it read, it reads again instead; paused or closed, a held acknowledgement goes now.
     */
    private void park(OwnedShard s, boolean lingers) {
        if (s.rereadOnEmpty) {
            s.rereadOnEmpty = false;
            schedule(s);
        } else if (m.readsOn(s) && !m.closed()) {
            activity(s, lingers ? ShardActivity.LINGERING : ShardActivity.IDLE, "read nothing new");
            m.emit(new ShardAction.Watch(s.shard(), s.wakeId));
            if (lingers) {
                s.lingerTimerId = timers.set(settings.ackLingerMs(), s, ShardTimers.Kind.LINGER);
            }
        } else if (lingers) {
            schedule(s);
        }
    }

    /** An idle shard stops waiting (or one that stopped waiting meanwhile is looked at again): its next step. */
    void wake(OwnedShard s) {
        leaveIdle(s);
        schedule(s);
    }

    /** An idle shard stops waiting on the wake-up connections ({@link ShardActivity#PARKED}); others stay as they are. */
    void leaveIdle(OwnedShard s) {
        if (s.activity().idle()) {
            cancelLinger(s);
            activity(s, ShardActivity.PARKED, "woken");
        }
    }

    /** The timer {@code id} of {@code s} fired. */
    void timerFired(OwnedShard s, ShardTimers.Kind kind, long id) {
        if (kind == ShardTimers.Kind.LINGER && s.lingerTimerId == id) {
            s.lingerTimerId = -1;
            if (s.activity() == ShardActivity.LINGERING) {
                // it stays on its wake-up connection meanwhile; a wake-up in between makes it read again
                activity(s, ShardActivity.PARKED, "ack linger over");
                if (s.behindInFlight) {
                    m.emit(new ShardAction.Unwatch(s.shard())); // its read behind the wake-up read is awaited: land it now
                }
                schedule(s);
            }
        } else if (kind == ShardTimers.Kind.RETRY && s.timerId == id) {
            s.timerId = -1;
            if (s.activity() == ShardActivity.WAITING) {
                activity(s, ShardActivity.PARKED, "timer over");
                schedule(s);
            }
        }
    }

    /** A shard waiting for a timer stops waiting now ({@link ShardActivity#PARKED}) and is looked at again. */
    void endWait(OwnedShard s, String reason) {
        if (s.activity() == ShardActivity.WAITING) {
            cancelTimer(s);
            activity(s, ShardActivity.PARKED, reason);
            schedule(s);
        }
    }

    private void cancelLinger(OwnedShard s) {
        if (s.lingerTimerId >= 0) {
            timers.cancel(s.lingerTimerId);
            s.lingerTimerId = -1;
        }
    }

    void cancelTimer(OwnedShard s) {
        if (s.timerId >= 0) {
            timers.cancel(s.timerId);
            s.timerId = -1;
        }
    }

    private void activity(OwnedShard s, ShardActivity next, String reason) {
        s.transition(s.phase(), next, reason);
    }
}
