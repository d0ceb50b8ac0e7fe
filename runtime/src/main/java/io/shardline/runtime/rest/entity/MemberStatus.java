package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One member of a listener (Connect's task status). Immutable.
 *
 * @param id the member id ({@code <worker>-<listener>-m<i>})
 * @param workerId the worker hosting it
 * @param state its state
 * @param epoch its member epoch
 * @param shards the shards it owns ({@code stream:index}), sorted
 * @param trace a failure summary when {@code FAILED}, else {@code null}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MemberStatus(String id, String workerId, ListenerState state, int epoch, List<String> shards,
                           String trace) {

    /** Validates and copies. */
    public MemberStatus {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(state, "state");
        shards = List.copyOf(shards);
    }
}
