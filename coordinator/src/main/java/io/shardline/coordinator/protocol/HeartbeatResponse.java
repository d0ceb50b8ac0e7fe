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
 * <p>KIP-848's delta: an answer with {@code assignmentUnchanged} carries neither {@code assigned} nor {@code pending}
 * (both empty): they are those of the answer the member last applied. The coordinator sends it only to a request that
 * did not list its owned shards, and only when the answer's member and assignment epochs are the ones the request
 * carried: every change of a member's assigned or pending shards changes one of them (docs/protocol.md, section 2).
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
 * @param assignmentUnchanged true when {@code assigned} and {@code pending} are not sent: unchanged
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
        int sessionTimeoutMs,
        boolean assignmentUnchanged) {

    /** Validates and copies. */
    public HeartbeatResponse {
        Objects.requireNonNull(error, "error");
        errorMessage = Objects.requireNonNullElse(errorMessage, "");
        Objects.requireNonNull(memberId, "memberId");
        assigned = Collections.unmodifiableSortedMap(new TreeMap<>(assigned));
        pending = Collections.unmodifiableSortedSet(new TreeSet<>(pending));
        if (assignmentUnchanged && (error != ErrorCode.NONE || !assigned.isEmpty() || !pending.isEmpty())) {
            throw new IllegalArgumentException("an answer with assignmentUnchanged must be an answer without error "
                    + "that lists no assigned and no pending shards");
        }
    }

    /** An answer that carries its assignment ({@code assignmentUnchanged} false). */
    public HeartbeatResponse(ErrorCode error, String errorMessage, String memberId, int memberEpoch,
            int assignmentEpoch, SortedMap<ShardId, Integer> assigned, SortedSet<ShardId> pending,
            int heartbeatIntervalMs, int sessionTimeoutMs) {
        this(error, errorMessage, memberId, memberEpoch, assignmentEpoch, assigned, pending, heartbeatIntervalMs,
                sessionTimeoutMs, false);
    }

    /** This answer without its assignment: the member keeps the one it has (same epochs). */
    public HeartbeatResponse withoutAssignment() {
        return new HeartbeatResponse(error, errorMessage, memberId, memberEpoch, assignmentEpoch,
                Collections.emptySortedMap(), Collections.emptySortedSet(), heartbeatIntervalMs, sessionTimeoutMs,
                true);
    }

    /** This answer with another heartbeat interval (a call-back, docs/protocol.md section 7). */
    public HeartbeatResponse withHeartbeatIntervalMs(int value) {
        return new HeartbeatResponse(error, errorMessage, memberId, memberEpoch, assignmentEpoch, assigned, pending,
                value, sessionTimeoutMs, assignmentUnchanged);
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
