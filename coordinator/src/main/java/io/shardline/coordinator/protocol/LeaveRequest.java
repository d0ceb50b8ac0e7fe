package io.shardline.coordinator.protocol;

import java.util.Objects;

/**
 * A graceful leave. The member sends it only after it stopped and drained every shard: the coordinator
 * releases all the member's shards at once. A static member (one with an instance id) leaves temporarily: its
 * target stays reserved for one session timeout (KIP-345). Immutable.
 *
 * @param groupId the group
 * @param memberId the member id
 * @param memberEpoch the member's current epoch
 */
public record LeaveRequest(String groupId, String memberId, int memberEpoch) {

    /** Validates. */
    public LeaveRequest {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(memberId, "memberId");
    }
}
