package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One interval of a listener's recent history ({@code GET /listeners/{name}/history}). Immutable.
 *
 * @param timeMs the start of the interval (epoch milliseconds, a multiple of the interval)
 * @param recordsPerSecond records handled per second during the interval
 * @param deadLettersPerSecond records dead-lettered per second during the interval
 * @param lag entries not yet delivered to the listener's group at the end of the interval
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record HistoryPoint(long timeMs, double recordsPerSecond, double deadLettersPerSecond, long lag) {
}
