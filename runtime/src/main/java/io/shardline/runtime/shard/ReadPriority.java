package io.shardline.runtime.shard;

import java.util.ArrayDeque;
import java.util.TreeSet;

/**
 * Reads of shards that keep up go before the next call of a backlogged shard. A keeping-up shard's read is on its
 * records' latency path (a record just arrived; the handler gets it when the read returns); a backlogged shard's next
 * fenced ack-and-read is throughput, and a large one: on Redis it runs for the time of a full batch, and its reply
 * takes the member's event loop as long again. So a backlogged shard's call waits until the keeping-up reads in
 * flight when it became due have returned; reads that start later do not hold it up, so it waits at most one read's
 * round trip and is never starved, and it goes on at once when none is in flight. Handler calls are not reads: a slow
 * handler on a keeping-up shard holds up nobody.
 *
 * <p>Pure bookkeeping on the member's context; not thread-safe.
 */
final class ReadPriority {

    private record Waiting(long after, Runnable call) {
    }

    private final TreeSet<Long> inFlight = new TreeSet<>();
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private long last;

    /** A keeping-up read starts; returns its ticket for {@link #ended}. */
    long started() {
        inFlight.add(++last);
        return last;
    }

    /** The read with {@code ticket} returned (or failed): runs the calls that waited for it and nothing else. */
    void ended(long ticket) {
        if (!inFlight.remove(ticket)) {
            return;
        }
        long oldest = inFlight.isEmpty() ? Long.MAX_VALUE : inFlight.first();
        while (!waiting.isEmpty() && waiting.peekFirst().after() < oldest) {
            waiting.pollFirst().call().run();
        }
    }

    /** Runs {@code call} now if no keeping-up read is in flight, else once those in flight now have ended. */
    void afterReadsInFlight(Runnable call) {
        if (inFlight.isEmpty()) {
            call.run();
        } else {
            waiting.addLast(new Waiting(inFlight.last(), call));
        }
    }

    /** Keeping-up reads in flight. */
    int inFlight() {
        return inFlight.size();
    }
}
