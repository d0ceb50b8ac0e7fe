package io.shardline.runtime.metrics;

import io.shardline.runtime.rest.entity.HistoryPoint;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * This worker's share of every listener's recent history, in a ring buffer of {@value #CAPACITY} intervals of
 * {@value #INTERVAL_MS} ms (15 minutes): records handled and dead-lettered per second by this worker's members,
 * and the lag of the shards this worker exports (those it owns). Fed by {@link io.shardline.runtime.control.ListenerStatusSampler} with
 * the running totals of the listener's meters; the rate of an interval is the difference to the previous
 * sample over the time between them (a total that went down, a listener started again, counts as zero).
 * Interval start times are multiples of the interval, so {@link #sum} adds up the shares of every worker.
 * Thread-safe.
 */
public final class ListenerHistory {

    /** The length of one interval. */
    public static final long INTERVAL_MS = 5_000;
    /** The intervals kept per listener: 15 minutes. */
    public static final int CAPACITY = 180;

    private final Map<String, Series> series = new HashMap<>();

    /**
     * Records one sample of {@code listener} taken at {@code nowMs}: the totals of its meters on this worker and
     * the lag of the shards this worker exports.
     */
    public synchronized void record(String listener, long nowMs, long handledTotal, long deadLetteredTotal, long lag) {
        series.computeIfAbsent(listener, l -> new Series()).record(nowMs, handledTotal, deadLetteredTotal, lag);
    }

    /** This worker's intervals of {@code listener}, oldest first (empty when unknown). */
    public synchronized List<HistoryPoint> points(String listener) {
        Series s = series.get(listener);
        return s == null ? List.of() : List.copyOf(s.points);
    }

    /** Forgets every listener not in {@code listeners} (deleted ones). */
    public synchronized void retain(Set<String> listeners) {
        series.keySet().retainAll(listeners);
    }

    /** The intervals of several workers added up by start time, oldest first. */
    public static List<HistoryPoint> sum(List<List<HistoryPoint>> shares) {
        Map<Long, HistoryPoint> out = new TreeMap<>();
        for (List<HistoryPoint> share : shares) {
            for (HistoryPoint p : share) {
                out.merge(p.timeMs(), p, (a, b) -> new HistoryPoint(a.timeMs(),
                        a.recordsPerSecond() + b.recordsPerSecond(), a.deadLettersPerSecond() + b.deadLettersPerSecond(),
                        a.lag() + b.lag()));
            }
        }
        List<HistoryPoint> points = new ArrayList<>(out.values());
        return points.size() <= CAPACITY ? points : points.subList(points.size() - CAPACITY, points.size());
    }

    /** One listener's ring buffer and its previous sample. */
    private static final class Series {
        private final Deque<HistoryPoint> points = new ArrayDeque<>();
        private long lastMs = -1;
        private long lastHandled;
        private long lastDead;

        void record(long nowMs, long handled, long dead, long lag) {
            if (lastMs >= 0 && nowMs > lastMs) {
                double seconds = (nowMs - lastMs) / 1000.0;
                HistoryPoint point = new HistoryPoint(nowMs - Math.floorMod(nowMs, INTERVAL_MS),
                        Math.max(0, handled - lastHandled) / seconds, Math.max(0, dead - lastDead) / seconds, lag);
                if (!points.isEmpty() && points.peekLast().timeMs() == point.timeMs()) {
                    points.pollLast();
                }
                points.addLast(point);
                while (points.size() > CAPACITY) {
                    points.pollFirst();
                }
            }
            lastMs = nowMs;
            lastHandled = handled;
            lastDead = dead;
        }
    }
}
