package io.shardline.coordinator.protocol;

import io.shardline.api.handler.ShardId;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The coordinator's answer to a heartbeat. Immutable.
 *
 * <p>On {@link ErrorCode#NONE} the answer is declarative: {@code assigned} is the complete set of shards the
 * member may own now, each with the owner epoch (fencing token) the coordinator wrote to the shard's owner
 * key. The member revokes every shard it owns that is missing, and starts every listed shard it does not own.
 * {@code pending} are shards of its target that it will get once their previous owner released them.
 *
 * @param error the error, {@link ErrorCode#NONE} on success
 * @param errorMessage a human-readable reason naming the values involved; empty on success
 * @param memberId the member id
 * @param memberEpoch the member's epoch to send from now on (0 on error)
 * @param assignmentEpoch the group's assignment epoch
 * @param assigned shard to owner epoch: everything the member may own now
 * @param pending shards of the member's target still held by their previous owner
 * @param heartbeatIntervalMs how long to wait before the next heartbeat
 * @param sessionTimeoutMs the session timeout the coordinator expires the member by
 */
public record HeartbeatResponse(
        ErrorCode error,
        String errorMessage,
        String memberId,
        int memberEpoch,
        int assignmentEpoch,
        SortedMap<ShardId, Integer> assigned,
        SortedSet<ShardId> pending,
        int heartbeatIntervalMs,
        int sessionTimeoutMs) {

    /** Validates and copies. */
    public HeartbeatResponse {
        Objects.requireNonNull(error, "error");
        errorMessage = Objects.requireNonNullElse(errorMessage, "");
        Objects.requireNonNull(memberId, "memberId");
        assigned = Collections.unmodifiableSortedMap(new TreeMap<>(assigned));
        pending = Collections.unmodifiableSortedSet(new TreeSet<>(pending));
    }

    /** An error answer. */
    public static HeartbeatResponse error(
            ErrorCode error,
            String message,
            String memberId,
            int heartbeatIntervalMs,
            int sessionTimeoutMs) {
        if (error == ErrorCode.NONE) {
            throw new IllegalArgumentException("an error answer needs an error code other than NONE");
        }
        return new HeartbeatResponse(error, message, memberId, 0, 0, new TreeMap<>(), new TreeSet<>(),
                heartbeatIntervalMs, sessionTimeoutMs);
    }
}
