package io.shardline.coordinator.record;

import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A member joined or changed its subscriptions or rack.
 *
 * @param groupId the group
 * @param memberId the member
 * @param instanceId its static instance id, if any
 * @param rack its rack, if known
 * @param subscriptions the streams it reads
 * @param weight its weight (0, in records written before weights existed, reads as 1)
 */
public record MemberMetadataRecord(
        String groupId,
        String memberId,
        Optional<String> instanceId,
        Optional<String> rack,
        SortedSet<String> subscriptions,
        int weight) implements CoordinatorRecord {

    /** Validates and copies. */
    public MemberMetadataRecord {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(memberId, "memberId");
        instanceId = Objects.requireNonNullElse(instanceId, Optional.empty());
        rack = Objects.requireNonNullElse(rack, Optional.empty());
        subscriptions = Collections.unmodifiableSortedSet(new TreeSet<>(subscriptions));
        weight = Math.max(1, weight);
    }

    /** The metadata of a member of weight 1. */
    public MemberMetadataRecord(String groupId, String memberId, Optional<String> instanceId, Optional<String> rack,
            SortedSet<String> subscriptions) {
        this(groupId, memberId, instanceId, rack, subscriptions, 1);
    }
}
