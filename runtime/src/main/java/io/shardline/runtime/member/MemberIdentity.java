package io.shardline.runtime.member;

import java.util.Objects;
import java.util.Optional;

/**
 * What a member tells the coordinator about itself besides its member id, on every heartbeat. Immutable.
 *
 * @param instanceId its static instance id (KIP-345; {@code static.membership=true} makes it the member id), if any
 * @param rack its rack (availability zone), if known
 * @param weight its capacity relative to the group's other members ({@code member.weight}, >= 1)
 */
public record MemberIdentity(Optional<String> instanceId, Optional<String> rack, int weight) {

    /** A dynamic member with no rack, of weight 1. */
    public static final MemberIdentity NONE = new MemberIdentity(Optional.empty(), Optional.empty(), 1);

    /** Validates. */
    public MemberIdentity {
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(rack, "rack");
        if (weight < 1) {
            throw new IllegalArgumentException("weight must be >= 1, was " + weight);
        }
    }
}
