package io.shardline.runtime.coordinator;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.coordinator.assignment.AssignmentPendingException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Runs a plugin assignor off the coordinator's event loop, under a time limit ({@code assignor.timeout.ms}).
 * The pure coordinator calls {@link #assign} synchronously whenever a group's target is due (every heartbeat and
 * tick until it is computed): the first call for an input starts the plugin on {@code executor} and answers
 * {@link AssignmentPendingException}; later calls for the same input answer pending until the plugin returned,
 * then its result (or its failure, as an {@link IllegalStateException} the coordinator audits as
 * {@code ASSIGNOR_FAILED}). A call running past the limit is interrupted and reported as failed. So a slow or
 * hung plugin never stalls heartbeats, and the group stays on its previous target meanwhile.
 *
 * <p>At most {@value #MAX_RUNNING} calls of one assignor may run at once (a plugin that ignores interrupts keeps
 * its thread): beyond that, a new input fails at once. Thread-safe.
 */
final class TimeLimitedAssignor implements Assignor {

    /** Calls of one assignor that may run at once, counting timed-out ones whose thread has not returned. */
    static final int MAX_RUNNING = 4;
    private static final int MAX_REMEMBERED = 64;

    private final Assignor assignor;
    private final ExecutorService executor;
    private final long timeoutMs;
    private final LongSupplier clockMs;
    private final AtomicInteger running = new AtomicInteger();
    /** Calls by input, oldest first; guarded by itself. */
    private final LinkedHashMap<Input, Call> calls = new LinkedHashMap<>();

    private record Input(GroupSpec group, ShardDescriber shards) {
    }

    private record Call(Future<GroupAssignment> future, long startedMs) {
    }

    /**
     * Wraps {@code assignor}.
     *
     * @param executor runs the plugin's calls (threads that may be interrupted)
     * @param timeoutMs the longest a call may run
     * @param clockMs monotonic milliseconds
     */
    TimeLimitedAssignor(Assignor assignor, ExecutorService executor, long timeoutMs, LongSupplier clockMs) {
        this.assignor = Objects.requireNonNull(assignor, "assignor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.timeoutMs = timeoutMs;
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
    }

    @Override
    public String name() {
        return assignor.name();
    }

    @Override
    public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
        Input input = new Input(group, shards);
        long now = clockMs.getAsLong();
        Call call;
        synchronized (calls) {
            call = calls.get(input);
            if (call == null) {
                start(input, now);
                throw new AssignmentPendingException("assignor '" + name() + "' started");
            }
            if (call.future().isDone() || now - call.startedMs() >= timeoutMs) {
                calls.remove(input);
            }
        }
        if (call.future().isDone()) {
            return result(call.future());
        }
        if (now - call.startedMs() >= timeoutMs) {
            call.future().cancel(true);
            throw new IllegalStateException("no answer within assignor.timeout.ms = " + timeoutMs
                    + " ms (its thread was interrupted; the group stays on its previous target)");
        }
        throw new AssignmentPendingException("assignor '" + name() + "' running for " + (now - call.startedMs())
                + " ms");
    }

    private void start(Input input, long now) {
        forgetOld(now);
        int busy = running.get();
        if (busy >= MAX_RUNNING) {
            throw new IllegalStateException(busy + " calls of this assignor are still running (some past "
                    + "assignor.timeout.ms = " + timeoutMs + " ms, ignoring their interrupt); not starting another. "
                    + "Fix the assignor and restart the workers");
        }
        running.incrementAndGet();
        Future<GroupAssignment> future;
        try {
            future = executor.submit(() -> {
                try {
                    return assignor.assign(input.group(), input.shards());
                } finally {
                    running.decrementAndGet();
                }
            });
        } catch (RuntimeException e) {
            running.decrementAndGet();
            throw new IllegalStateException("cannot start the assignor: " + e, e);
        }
        calls.put(input, new Call(future, now));
    }

    /** Drops calls for inputs nobody asked about for a while (the group changed while they ran). */
    private void forgetOld(long now) {
        Iterator<Map.Entry<Input, Call>> it = calls.entrySet().iterator();
        while (it.hasNext()) {
            Call c = it.next().getValue();
            if (calls.size() >= MAX_REMEMBERED || now - c.startedMs() >= 2 * timeoutMs) {
                c.future().cancel(true);
                it.remove();
            }
        }
    }

    private static GroupAssignment result(Future<GroupAssignment> future) {
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            String text = cause.getMessage() == null ? cause.toString() : cause.getClass().getSimpleName() + ": "
                    + cause.getMessage();
            throw new IllegalStateException("threw " + text, cause);
        } catch (CancellationException e) {
            throw new IllegalStateException("was cancelled", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
