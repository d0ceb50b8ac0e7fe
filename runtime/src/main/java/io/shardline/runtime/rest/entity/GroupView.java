package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code GET /groups/{group}}: the coordinator's read model of one group. Immutable.
 *
 * @param group the group id
 * @param groupEpoch the group epoch
 * @param assignmentEpoch the target assignment's epoch
 * @param assignor the assignor's name
 * @param members the members, sorted by id
 * @param assignorError the assignor's last failure, while the group stays on its previous target; else null
 * @param shardZones with {@code redis.zones} set, the zones of each shard ({@code stream:index}); else null
 * @param zoneLocalShards with {@code redis.zones} set, how many shards are owned by a member in one of their zones
 * @param settings the group-level settings the coordinator holds (null from a coordinator that does not send them)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record GroupView(String group, int groupEpoch, int assignmentEpoch, String assignor,
                        List<GroupMemberView> members,
                        @JsonInclude(JsonInclude.Include.NON_NULL) AssignorError assignorError,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, List<String>> shardZones,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Integer zoneLocalShards,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Settings settings) {

    /**
     * The group-level settings the coordinator applies, as the listener keys that set them.
     *
     * @param rebalanceProtocol {@code cooperative} or {@code eager}
     * @param sessionTimeoutMs the session timeout
     * @param heartbeatIntervalMs the heartbeat interval
     * @param rebalanceTimeoutMs the rebalance timeout
     * @param streams stream name to shard count
     * @param revision the revision of the listener definition they come from (0: unversioned)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Settings(String rebalanceProtocol, int sessionTimeoutMs, int heartbeatIntervalMs,
                           int rebalanceTimeoutMs, Map<String, Integer> streams, long revision) {
    }

    /** A group view without settings. */
    public GroupView(String group, int groupEpoch, int assignmentEpoch, String assignor, List<GroupMemberView> members,
                     AssignorError assignorError, Map<String, List<String>> shardZones, Integer zoneLocalShards) {
        this(group, groupEpoch, assignmentEpoch, assignor, members, assignorError, shardZones, zoneLocalShards, null);
    }

    /**
     * Why the group's assignor last failed (it threw, ran past {@code assignor.timeout.ms}, returned an invalid
     * assignment, or is not installed on the leader).
     *
     * @param groupEpoch the group epoch the target was computed for
     * @param message what went wrong
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record AssignorError(int groupEpoch, String message) {
    }

    /** A group whose assignor has not failed. */
    public GroupView(String group, int groupEpoch, int assignmentEpoch, String assignor, List<GroupMemberView> members) {
        this(group, groupEpoch, assignmentEpoch, assignor, members, null, null, null, null);
    }

    /** Validates and copies. */
    public GroupView {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(assignor, "assignor");
        members = List.copyOf(members);
    }
}
