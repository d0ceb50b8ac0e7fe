package io.shardline.coordinator.member;

import io.shardline.coordinator.group.GroupConfig;
import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A member's identity and timing. Immutable.
 *
 * @param groupId the group
 * @param memberId the member id ({@code <worker>-<listener>-m<i>}), stable across restarts
 * @param instanceId the static instance id, if any
 * @param rack the rack, if known
 * @param subscriptions the streams the member reads
 * @param initialHeartbeatIntervalMs the interval before the coordinator told one
 * @param selfFenceMarginMs how long before the coordinator may expire it the member stops processing; at least
 *     two heartbeat intervals plus the worst clock-rate error over a session (research note §4)
 * @param rebalanceTimeoutMs how long a revoked shard may take to drain: a member whose drain takes longer fences
 *     itself (stops everything and rejoins), as the coordinator fences it at its own, earlier deadline; the
 *     group's {@code rebalanceTimeoutMs}
 * @param weight the member's weight ({@code member.weight}, >= 1), sent with every heartbeat
 */
public record MembershipConfig(
        String groupId,
        String memberId,
        Optional<String> instanceId,
        Optional<String> rack,
        SortedSet<String> subscriptions,
        int initialHeartbeatIntervalMs,
        int selfFenceMarginMs,
        int rebalanceTimeoutMs,
        int weight) {

    /** Validates and copies; errors name the field and value. */
    public MembershipConfig {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(memberId, "memberId");
        if (memberId.isBlank()) {
            throw new IllegalArgumentException("memberId must not be blank");
        }
        instanceId = Objects.requireNonNullElse(instanceId, Optional.empty());
        rack = Objects.requireNonNullElse(rack, Optional.empty());
        subscriptions = Collections.unmodifiableSortedSet(new TreeSet<>(subscriptions));
        if (initialHeartbeatIntervalMs <= 0) {
            throw new IllegalArgumentException("member '" + memberId + "': initial heartbeat interval must be > 0 ms, was "
                    + initialHeartbeatIntervalMs);
        }
        if (selfFenceMarginMs <= 0) {
            throw new IllegalArgumentException("member '" + memberId + "': self-fence margin must be > 0 ms, was "
                    + selfFenceMarginMs);
        }
        if (weight < 1) {
            throw new IllegalArgumentException("member '" + memberId + "': weight must be >= 1, was " + weight);
        }
        if (rebalanceTimeoutMs <= 0) {
            throw new IllegalArgumentException("member '" + memberId + "': rebalance timeout must be > 0 ms, was "
                    + rebalanceTimeoutMs);
        }
    }

    /** A member of weight 1. */
    public MembershipConfig(String groupId, String memberId, Optional<String> instanceId, Optional<String> rack,
            SortedSet<String> subscriptions, int initialHeartbeatIntervalMs, int selfFenceMarginMs,
            int rebalanceTimeoutMs) {
        this(groupId, memberId, instanceId, rack, subscriptions, initialHeartbeatIntervalMs, selfFenceMarginMs,
                rebalanceTimeoutMs, 1);
    }

    /** A member with the default rebalance timeout ({@link GroupConfig#DEFAULT_REBALANCE_TIMEOUT_MS}). */
    public MembershipConfig(String groupId, String memberId, Optional<String> instanceId, Optional<String> rack,
            SortedSet<String> subscriptions, int initialHeartbeatIntervalMs, int selfFenceMarginMs) {
        this(groupId, memberId, instanceId, rack, subscriptions, initialHeartbeatIntervalMs, selfFenceMarginMs,
                GroupConfig.DEFAULT_REBALANCE_TIMEOUT_MS);
    }
}
