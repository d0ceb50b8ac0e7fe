package io.shardline.coordinator.member;

import java.util.EnumSet;
import java.util.Set;

/**
 * The member-side lifecycle. Every transition goes through {@link Membership}'s one gate, which refuses edges not
 * listed in {@link #previousValidStates()} (Kafka's {@code MemberState}).
 */
public enum MembershipState {

    /** Not joined yet: the next heartbeat is a join (epoch 0). */
    UNJOINED,
    /** A join is in flight. */
    JOINING,
    /** Owns exactly its assignment; nothing to revoke, nothing pending. */
    STABLE,
    /** Draining revoked shards or waiting for pending ones. */
    RECONCILING,
    /** Dropped all ownership (fenced by the coordinator or by its own lease): the next heartbeat rejoins. */
    FENCED,
    /** Draining everything before sending the leave. */
    LEAVING,
    /** Left: owns nothing, sends nothing. Terminal. */
    LEFT;

    /** The states this state may be entered from. */
    public Set<MembershipState> previousValidStates() {
        return switch (this) {
            case UNJOINED -> EnumSet.of(JOINING);
            case JOINING -> EnumSet.of(UNJOINED, FENCED);
            case STABLE, RECONCILING -> EnumSet.of(JOINING, STABLE, RECONCILING);
            case FENCED -> EnumSet.of(JOINING, STABLE, RECONCILING);
            case LEAVING -> EnumSet.of(UNJOINED, JOINING, STABLE, RECONCILING, FENCED);
            case LEFT -> EnumSet.of(LEAVING);
        };
    }

    /** True in the states where the member may hold shards. */
    public boolean mayHoldShards() {
        return this == STABLE || this == RECONCILING || this == LEAVING;
    }
}
