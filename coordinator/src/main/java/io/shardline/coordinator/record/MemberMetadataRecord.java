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
 */
public record MemberMetadataRecord(
        String groupId,
        String memberId,
        Optional<String> instanceId,
        Optional<String> rack,
        SortedSet<String> subscriptions) implements CoordinatorRecord {

    /** Validates and copies. */
    public MemberMetadataRecord {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(memberId, "memberId");
        instanceId = Objects.requireNonNullElse(instanceId, Optional.empty());
        rack = Objects.requireNonNullElse(rack, Optional.empty());
        subscriptions = Collections.unmodifiableSortedSet(new TreeSet<>(subscriptions));
    }
}
