package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One entry of {@code GET /groups}. Immutable.
 *
 * @param group the group id
 * @param streams its streams as {@code <stream>:<shards>}, sorted
 * @param listeners the listeners consuming with this group, sorted (empty for a group no listener uses any more)
 * @param listenerState the state of its listener when exactly one listener uses it, else {@code null}
 * @param state {@code ACTIVE} (has members), {@code EMPTY} (no member: it may be deleted) or {@code NOT_CREATED}
 *     (a listener names it but no member has joined it yet)
 * @param members the number of members in the coordinator
 * @param totalLag the entries not yet delivered to the group, summed over its shards ({@code null} when Redis
 *     could not tell for a shard)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GroupSummary(String group, List<String> streams, List<String> listeners, ListenerState listenerState,
                           String state, int members, Long totalLag) {

    /** A group with members. */
    public static final String ACTIVE = "ACTIVE";
    /** A group without members. */
    public static final String EMPTY = "EMPTY";
    /** A group a listener names that the coordinator does not host (yet). */
    public static final String NOT_CREATED = "NOT_CREATED";

    /** Validates and copies. */
    public GroupSummary {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(state, "state");
        streams = List.copyOf(streams);
        listeners = List.copyOf(listeners);
    }
}
