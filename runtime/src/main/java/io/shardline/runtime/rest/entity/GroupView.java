package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * {@code GET /groups/{group}}: the coordinator's read model of one group. Immutable.
 *
 * @param group the group id
 * @param groupEpoch the group epoch
 * @param assignmentEpoch the target assignment's epoch
 * @param assignor the assignor's name
 * @param members the members, sorted by id
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record GroupView(String group, int groupEpoch, int assignmentEpoch, String assignor,
                        List<GroupMemberView> members) {

    /** Validates and copies. */
    public GroupView {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(assignor, "assignor");
        members = List.copyOf(members);
    }
}
