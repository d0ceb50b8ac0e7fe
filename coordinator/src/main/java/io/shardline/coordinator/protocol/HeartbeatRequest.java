package io.shardline.coordinator.protocol;

import io.shardline.api.handler.ShardId;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One heartbeat of a member: who it is, what it reads and what it owns now. Immutable.
 *
 * <p>A member sends at most one heartbeat at a time. Epoch {@code 0} ({@link #JOIN_EPOCH}) is a join (or a
 * rejoin with the same member id after the member dropped everything); such a request must report nothing
 * owned and nothing revoking.
 *
 * <p>KIP-848's delta: a member that sends the same owned shards as in its last request answered without error sets
 * {@code ownedUnchanged} and sends no {@code owned} at all; the coordinator then takes its owned shards to be the
 * assignment of the answer it last applied ({@code memberEpoch}, {@code assignmentEpoch}) when those are still the
 * member's and the group's epochs, and learns nothing from the absence otherwise (docs/protocol.md, section 2).
 *
 * @param groupId the group
 * @param memberId the member id, stable across restarts ({@code <worker>-<listener>-m<i>})
 * @param memberEpoch the member epoch the member holds, or 0 to join
 * @param instanceId the static instance id (KIP-345), if any
 * @param rack the member's rack, if known
 * @param subscriptions the streams the member reads
 * @param owned the shards the member processes now (started and not being revoked)
 * @param revoking the shards the member is giving back, with their state
 * @param assignmentEpoch the assignment epoch of the last answer the member applied (0 before the first)
 * @param weight the member's weight ({@code member.weight}; 0 reads as 1)
 * @param ownedUnchanged true when {@code owned} is not sent (empty): the same as in the last answered request
 */
public record HeartbeatRequest(
        String groupId,
        String memberId,
        int memberEpoch,
        Optional<String> instanceId,
        Optional<String> rack,
        SortedSet<String> subscriptions,
        SortedSet<ShardId> owned,
        List<RevokeReport> revoking,
        int assignmentEpoch,
        int weight,
        boolean ownedUnchanged) {

    /** The epoch a member sends to join or rejoin. */
    public static final int JOIN_EPOCH = 0;

    /** Validates and copies. */
    public HeartbeatRequest {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(memberId, "memberId");
        if (memberId.isBlank()) {
            throw new IllegalArgumentException("memberId must not be blank");
        }
        if (memberEpoch < 0) {
            throw new IllegalArgumentException("memberEpoch must be >= 0, was " + memberEpoch);
        }
        instanceId = Objects.requireNonNullElse(instanceId, Optional.empty());
        rack = Objects.requireNonNullElse(rack, Optional.empty());
        subscriptions = Collections.unmodifiableSortedSet(new TreeSet<>(subscriptions));
        owned = Collections.unmodifiableSortedSet(new TreeSet<>(owned));
        revoking = List.copyOf(revoking);
        weight = Math.max(1, weight);
        if (ownedUnchanged && (memberEpoch == JOIN_EPOCH || !owned.isEmpty())) {
            throw new IllegalArgumentException("member '" + memberId + "': a request with ownedUnchanged must not be a "
                    + "join and must list no owned shards");
        }
    }

    /** A heartbeat that reports its owned shards ({@code ownedUnchanged} false). */
    public HeartbeatRequest(String groupId, String memberId, int memberEpoch, Optional<String> instanceId,
            Optional<String> rack, SortedSet<String> subscriptions, SortedSet<ShardId> owned, List<RevokeReport> revoking,
            int assignmentEpoch, int weight) {
        this(groupId, memberId, memberEpoch, instanceId, rack, subscriptions, owned, revoking, assignmentEpoch, weight,
                false);
    }

    /** A heartbeat of a member of weight 1. */
    public HeartbeatRequest(String groupId, String memberId, int memberEpoch, Optional<String> instanceId,
            Optional<String> rack, SortedSet<String> subscriptions, SortedSet<ShardId> owned, List<RevokeReport> revoking,
            int assignmentEpoch) {
        this(groupId, memberId, memberEpoch, instanceId, rack, subscriptions, owned, revoking, assignmentEpoch, 1, false);
    }

    /** True for a join (epoch 0). */
    public boolean isJoin() {
        return memberEpoch == JOIN_EPOCH;
    }
}
