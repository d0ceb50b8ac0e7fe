package io.shardline.coordinator.simulation;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.PriorityQueue;
import java.util.function.Supplier;

/**
 * A deterministic discrete-event scheduler: events run in (time, insertion order); the clock jumps to each
 * event's time. Keeps the last events as a trace for failure reports.
 */
final class Scheduler {

    private record Event(long time, long seq, Supplier<String> label, Runnable action) {
    }

    private static final int TRACE = Integer.getInteger("simulation.trace", 80);

    private final PriorityQueue<Event> queue = new PriorityQueue<>(
            Comparator.comparingLong(Event::time).thenComparingLong(Event::seq));
    private final Deque<String> trace = new ArrayDeque<>();
    private final boolean tracing;
    private long now;
    private long seq;
    private long executed;

    Scheduler(boolean tracing) {
        this.tracing = tracing;
    }

    long now() {
        return now;
    }

    long executed() {
        return executed;
    }

    void at(long time, Supplier<String> label, Runnable action) {
        queue.add(new Event(Math.max(time, now), seq++, label, action));
    }

    void after(long delay, Supplier<String> label, Runnable action) {
        at(now + delay, label, action);
    }

    /** Runs the next event if it is due by {@code until}; false when there is none. */
    boolean runNext(long until) {
        Event e = queue.peek();
        if (e == null || e.time() > until) {
            now = Math.max(now, until);
            return false;
        }
        queue.poll();
        now = e.time();
        executed++;
        if (tracing) {
            if (trace.size() == TRACE) {
                trace.removeFirst();
            }
            trace.addLast(now + " " + e.label().get());
        }
        e.action().run();
        return true;
    }

    /** Notes something in the trace. */
    void note(Supplier<String> what) {
        if (!tracing) {
            return;
        }
        if (trace.size() == TRACE) {
            trace.removeFirst();
        }
        trace.addLast(now + " | " + what.get());
    }

    String trace() {
        return tracing ? String.join("\n", trace) : "(replay the seed to see its last events)";
    }
}
