package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One member in the coordinator's read model. Shard lists are {@code stream:index}, sorted. Immutable.
 *
 * @param id the member id
 * @param workerId the worker hosting it
 * @param state its coordinator-side state (e.g. {@code STABLE}, {@code UNREVOKED_SHARDS})
 * @param memberEpoch its member epoch
 * @param current the shards it owns now
 * @param target the shards the target assignment gives it
 * @param pendingRevocation the shards it must still revoke
 * @param zone its worker's zone ({@code rack}), null when not set
 * @param weight its weight ({@code member.weight}), null when not known
 * @param instanceId its static instance id ({@code static.membership=true}), null for a dynamic member
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record GroupMemberView(String id, String workerId, String state, int memberEpoch, List<String> current,
                              List<String> target, List<String> pendingRevocation,
                              @JsonInclude(JsonInclude.Include.NON_NULL) String zone,
                              @JsonInclude(JsonInclude.Include.NON_NULL) Integer weight,
                              @JsonInclude(JsonInclude.Include.NON_NULL) String instanceId) {

    /** A member without static instance id. */
    public GroupMemberView(String id, String workerId, String state, int memberEpoch, List<String> current,
                           List<String> target, List<String> pendingRevocation, String zone, Integer weight) {
        this(id, workerId, state, memberEpoch, current, target, pendingRevocation, zone, weight, null);
    }

    /** A member without zone. */
    public GroupMemberView(String id, String workerId, String state, int memberEpoch, List<String> current,
                           List<String> target, List<String> pendingRevocation) {
        this(id, workerId, state, memberEpoch, current, target, pendingRevocation, null, null, null);
    }

    /** Validates and copies. */
    public GroupMemberView {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(state, "state");
        current = List.copyOf(current);
        target = List.copyOf(target);
        pendingRevocation = List.copyOf(pendingRevocation);
    }
}
