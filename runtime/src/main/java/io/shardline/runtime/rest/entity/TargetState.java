package io.shardline.runtime.rest.entity;

/**
 * The desired state of a listener, persisted in Redis and applied by every worker (Connect's
 * {@code TargetState}). Stored by name; an unknown stored name reads as {@link #UNKNOWN}.
 */
public enum TargetState {
    /** Process records (the default). */
    STARTED,
    /** Keep the shards and the membership, but read nothing (a pause takes effect within one heartbeat). */
    PAUSED,
    /** Leave the group: the listener's members release their shards (KIP-875's STOPPED). */
    STOPPED,
    /** A stored value this version does not know; treated as {@link #STARTED} is not: it is reported as is. */
    UNKNOWN;

    /** Parses a stored value; never throws. */
    public static TargetState fromStored(String text) {
        if (text == null) {
            return STARTED;
        }
        for (TargetState state : values()) {
            if (state.name().equals(text)) {
                return state;
            }
        }
        return UNKNOWN;
    }
}
