package io.shardline.runtime.cluster;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The timer loop of a task the leader runs (resharding, retention): every interval, on the worker that leads now,
 * one pass ({@code lead}), the next tick scheduled only when that pass's future ended, so passes never overlap; on a
 * worker that does not lead, {@code follow} (drop what the last leadership left: state, metrics) and the next tick.
 * {@link #nudge()} brings the next tick forward: at once when none runs, else right after the running one (an event
 * the task waits for happened). Never blocks: ticks run on the Vert.x context of {@link #start()}. {@link #start()},
 * {@link #nudge()} and {@link #close()} are thread-safe; a pass in flight when closed finishes, and nothing is
 * scheduled after it.
 */
public final class LeaderTicker {

    private final Vertx vertx;
    private final LongSupplier intervalMs;
    private final BooleanSupplier leader;
    private final Supplier<Future<?>> lead;
    private final Runnable follow;
    private volatile boolean closed;
    private volatile long timer = -1;
    private volatile Context context;
    /** A tick runs now (its pass has not ended). The ticker's context. */
    private boolean running;
    /** A nudge came during a tick: the next one comes at once. The ticker's context. */
    private boolean nudged;

    /**
     * A ticker.
     *
     * @param intervalMs the time between the end of one pass and the next tick
     * @param leader whether this worker leads now
     * @param lead one pass on the leader; its failure is the task's to report (the next tick comes anyway)
     * @param follow what a tick does on a worker that does not lead
     */
    public LeaderTicker(Vertx vertx, long intervalMs, BooleanSupplier leader, Supplier<Future<?>> lead,
                        Runnable follow) {
        this(vertx, () -> intervalMs, leader, lead, follow);
    }

    /**
     * A ticker whose time to the next tick is asked anew after every pass (a task that has work waiting ticks
     * faster).
     *
     * @param intervalMs the time between the end of one pass and the next tick, asked after each pass
     */
    public LeaderTicker(Vertx vertx, LongSupplier intervalMs, BooleanSupplier leader, Supplier<Future<?>> lead,
                        Runnable follow) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.intervalMs = Objects.requireNonNull(intervalMs, "intervalMs");
        this.leader = Objects.requireNonNull(leader, "leader");
        this.lead = Objects.requireNonNull(lead, "lead");
        this.follow = Objects.requireNonNull(follow, "follow");
    }

    /** Starts ticking, on a context of its own when called off one. */
    public void start() {
        Context c = vertx.getOrCreateContext();
        context = c;
        c.runOnContext(v -> schedule());
    }

    /** Brings the next tick forward: now when none runs, else as soon as the running one ended. */
    public void nudge() {
        Context c = context;
        if (c == null || closed) {
            return;
        }
        c.runOnContext(v -> {
            long id = timer;
            if (running) {
                nudged = true;
            } else if (id >= 0 && vertx.cancelTimer(id)) {
                timer = -1;
                tick();
            }
        });
    }

    /** Stops ticking (a pass in flight finishes). */
    public void close() {
        closed = true;
        long id = timer;
        if (id >= 0) {
            vertx.cancelTimer(id);
        }
    }

    /** Whether {@link #close()} was called: a long pass checks it between its steps. */
    public boolean closed() {
        return closed;
    }

    private void schedule() {
        running = false;
        if (!closed) {
            long delay = nudged ? 1 : Math.max(1, intervalMs.getAsLong());
            nudged = false;
            timer = vertx.setTimer(delay, id -> tick());
        }
    }

    private void tick() {
        timer = -1;
        if (closed) {
            return;
        }
        running = true;
        if (!leader.getAsBoolean()) {
            follow.run();
            schedule();
            return;
        }
        Future<?> pass;
        try {
            pass = lead.get();
        } catch (RuntimeException e) {
            pass = Future.failedFuture(e);
        }
        Context c = context;
        pass.onComplete(ar -> {
            if (Vertx.currentContext() == c) {
                schedule();
            } else {
                c.runOnContext(v -> schedule());
            }
        });
    }
}
