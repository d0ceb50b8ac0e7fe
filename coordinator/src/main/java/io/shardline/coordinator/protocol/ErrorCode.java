package io.shardline.coordinator.protocol;

/**
 * The error of a heartbeat or leave answer, and what the member must do about it (see {@code docs/protocol.md}).
 *
 * <p>Codes are stable: they are part of the wire contract. {@link #requiresRejoin()} codes make the member stop
 * every shard at once, forget its ownership and rejoin with the same member id and epoch 0; the other error codes
 * change nothing on the member (it retries after one heartbeat interval and its lease is not extended).
 */
public enum ErrorCode {

    /** Success: apply the answer. */
    NONE(0, false),
    /** The coordinator does not know the member id (expired, left, or the group was rebuilt). */
    UNKNOWN_MEMBER_ID(1, true),
    /** The member epoch is neither the member's current nor its previous epoch: the member was fenced. */
    FENCED_MEMBER_EPOCH(2, true),
    /** The member reports an assignment epoch the coordinator never issued (state from a deposed leader). */
    STALE_ASSIGNMENT_EPOCH(3, true),
    /** The ownership report claims a shard that is not the member's: the member was fenced. */
    INVALID_OWNERSHIP(4, true),
    /** This process does not host the coordinator (any more): find the leader and retry there. */
    NOT_COORDINATOR(5, false),
    /** Another live member holds the static instance id: retry after a heartbeat interval. */
    UNRELEASED_INSTANCE_ID(6, false),
    /** The group is not configured on the coordinator: retry after a heartbeat interval. */
    GROUP_NOT_FOUND(7, false),
    /** The request is malformed (a field is missing or out of range); the message names the field. */
    INVALID_REQUEST(8, false),
    /**
     * A group configuration was not applied (an older revision, a disagreement at the same revision, or a changed
     * shard count); the message says why and what to do. Answers a configuration, never a heartbeat.
     */
    CONFIG_REFUSED(9, false);

    private final int code;
    private final boolean requiresRejoin;

    ErrorCode(int code, boolean requiresRejoin) {
        this.code = code;
        this.requiresRejoin = requiresRejoin;
    }

    /** The stable numeric code. */
    public int code() {
        return code;
    }

    /** True when the member must drop all local ownership and rejoin with the same id and epoch 0. */
    public boolean requiresRejoin() {
        return requiresRejoin;
    }

    /**
     * The error with numeric {@code code}.
     *
     * @throws IllegalArgumentException when no error has that code
     */
    public static ErrorCode fromCode(int code) {
        for (ErrorCode e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown heartbeat error code " + code);
    }
}
