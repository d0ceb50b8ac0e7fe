package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * {@code GET /listeners/{name}/status}: observed state, members and shards. Immutable.
 *
 * @param name the listener
 * @param state the listener's state (target state first: a paused listener is PAUSED; else FAILED
 *     when any member failed, RUNNING when a member runs, else UNASSIGNED)
 * @param targetState its desired state
 * @param group its consumer group
 * @param trace a failure summary when FAILED, else {@code null}
 * @param members its members on every worker, sorted by id
 * @param shards every shard of its streams, in stream and index order
 * @param unansweredWorkers live workers that did not report their members in time (their members are
 *     missing from {@code members}), sorted; omitted when every worker answered
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ListenerStatus(String name, ListenerState state, TargetState targetState, String group, String trace,
                             List<MemberStatus> members, List<ShardStatus> shards, List<String> unansweredWorkers) {

    /** A status to which every worker answered. */
    public ListenerStatus(String name, ListenerState state, TargetState targetState, String group, String trace,
                          List<MemberStatus> members, List<ShardStatus> shards) {
        this(name, state, targetState, group, trace, members, shards, null);
    }

    /** Validates and copies. */
    public ListenerStatus {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(targetState, "targetState");
        members = List.copyOf(members);
        shards = List.copyOf(shards);
        unansweredWorkers = unansweredWorkers == null || unansweredWorkers.isEmpty() ? null
                : List.copyOf(unansweredWorkers);
    }
}
