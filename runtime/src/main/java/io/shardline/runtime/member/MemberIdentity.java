package io.shardline.runtime.member;

import java.util.Objects;
import java.util.Optional;

/**
 * What a member tells the coordinator about itself besides its member id, on every heartbeat. Immutable.
 *
 * @param instanceId its static instance id (KIP-345; {@code static.membership=true} makes it the member id), if any
 * @param rack its rack (availability zone), if known
 */
public record MemberIdentity(Optional<String> instanceId, Optional<String> rack) {

    /** A dynamic member with no rack. */
    public static final MemberIdentity NONE = new MemberIdentity(Optional.empty(), Optional.empty());

    /** Validates. */
    public MemberIdentity {
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(rack, "rack");
    }
}
