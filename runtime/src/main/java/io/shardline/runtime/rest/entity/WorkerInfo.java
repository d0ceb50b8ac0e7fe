package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One live worker of the cluster. Immutable.
 *
 * @param id the worker id
 * @param leader whether it is the current leader (hosts the coordinator)
 * @param listeners the listeners it runs, sorted
 * @param members the member ids it hosts, sorted
 * @param version the Shardline version it runs, {@code null} when it did not answer
 * @param uptimeMs how long its JVM has been running, {@code null} when it did not answer
 * @param error why its listeners and members are missing (it did not answer in time), else {@code null}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkerInfo(String id, boolean leader, List<String> listeners, List<String> members, String version,
                         Long uptimeMs, String error) {

    /** A worker that answered, version and uptime unknown. */
    public WorkerInfo(String id, boolean leader, List<String> listeners, List<String> members) {
        this(id, leader, listeners, members, null, null, null);
    }

    /** A worker that did not answer in time, and why. */
    public static WorkerInfo unanswered(String id, boolean leader, String error) {
        return new WorkerInfo(id, leader, List.of(), List.of(), null, null, Objects.requireNonNull(error, "error"));
    }

    /** Validates and copies. */
    public WorkerInfo {
        Objects.requireNonNull(id, "id");
        listeners = List.copyOf(listeners);
        members = List.copyOf(members);
    }
}
