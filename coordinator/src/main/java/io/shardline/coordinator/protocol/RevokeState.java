package io.shardline.coordinator.protocol;

/** Where a member is in giving a shard back (step 3–4 of revoke-before-assign). */
public enum RevokeState {
    /** The member stopped new reads of the shard and is finishing its in-flight batch. */
    DRAINING,
    /** The member stopped the shard completely: no read, no handler call, no acknowledgement will follow. */
    REVOKED
}
