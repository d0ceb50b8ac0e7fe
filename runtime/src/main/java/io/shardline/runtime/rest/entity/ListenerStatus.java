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
 * @param shards its shards in stream and index order: all of them, or the page {@code shardsOffset} and
 *     {@code shardsTotal} describe
 * @param unansweredWorkers live workers that did not report their members in time (their members are
 *     missing from {@code members}), sorted; omitted when every worker answered
 * @param shardsTotal how many shards the listener has, when {@code shards} is a page of them (else omitted)
 * @param shardsOffset the position of the first shard of the page among all (else omitted)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ListenerStatus(String name, ListenerState state, TargetState targetState, String group, String trace,
                             List<MemberStatus> members, List<ShardStatus> shards, List<String> unansweredWorkers,
                             Integer shardsTotal, Integer shardsOffset) {

    /** A status to which every worker answered. */
    public ListenerStatus(String name, ListenerState state, TargetState targetState, String group, String trace,
                          List<MemberStatus> members, List<ShardStatus> shards) {
        this(name, state, targetState, group, trace, members, shards, null);
    }

    /** A status listing all its shards. */
    public ListenerStatus(String name, ListenerState state, TargetState targetState, String group, String trace,
                          List<MemberStatus> members, List<ShardStatus> shards, List<String> unansweredWorkers) {
        this(name, state, targetState, group, trace, members, shards, unansweredWorkers, null, null);
    }

    /** This status with its shards as the page at {@code offset} of {@code total}. */
    public ListenerStatus paged(int total, int offset) {
        return new ListenerStatus(name, state, targetState, group, trace, members, shards, unansweredWorkers, total,
                offset);
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
