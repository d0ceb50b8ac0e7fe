package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * {@code GET /listeners/{name}/history}: records handled per second, dead letters per second and lag of a
 * listener over the last minutes, summed over every worker that answered. Immutable.
 *
 * @param name the listener
 * @param intervalMs the length of one interval
 * @param points the intervals, oldest first
 * @param unansweredWorkers live workers that did not answer in time (their share is missing), omitted when
 *     every worker answered
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ListenerHistoryView(String name, long intervalMs, List<HistoryPoint> points,
                                  List<String> unansweredWorkers) {

    /** Validates and copies. */
    public ListenerHistoryView {
        Objects.requireNonNull(name, "name");
        points = List.copyOf(points);
        unansweredWorkers = unansweredWorkers == null || unansweredWorkers.isEmpty() ? null
                : List.copyOf(unansweredWorkers);
    }
}
