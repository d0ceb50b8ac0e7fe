package io.shardline.runtime.control;

import io.shardline.runtime.rest.entity.HistoryPoint;
import java.util.List;

/**
 * A listener's recent history added up over every live worker that answered, and the workers that did not
 * answer in time (their share is missing). Immutable.
 *
 * @param points the intervals, oldest first
 * @param unanswered ids of the workers that did not answer, sorted
 */
public record HistoryReport(List<HistoryPoint> points, List<String> unanswered) {

    /** Copies. */
    public HistoryReport {
        points = List.copyOf(points);
        unanswered = unanswered.stream().sorted().toList();
    }
}
