package io.shardline.coordinator;

/** What an {@link AuditEvent} records. */
public enum AuditType {
    /** A new member joined. */
    MEMBER_JOINED,
    /** A known member rejoined with epoch 0; its earlier incarnation is fenced. */
    MEMBER_REJOINED,
    /** A static member came back under a new member id and took over its reserved target. */
    MEMBER_REPLACED,
    /** A member left gracefully. */
    MEMBER_LEFT,
    /** A static member left temporarily; its target is reserved for one session timeout. */
    MEMBER_LEFT_STATIC,
    /** A member's lease passed; its shards were released (it has stopped by its own deadline). */
    MEMBER_EXPIRED,
    /** A member was fenced for an invalid ownership report. */
    MEMBER_FENCED,
    /**
     * A member was fenced because a revocation stayed pending longer than the rebalance timeout (its drain hangs);
     * its shards are released once it proves under a new epoch that it stopped, or when its lease passes.
     */
    MEMBER_REBALANCE_TIMEOUT,
    /** The group's configuration changed (the detail names each setting, old and new, and the revision). */
    GROUP_CONFIGURED,
    /** The group epoch moved. */
    GROUP_EPOCH_BUMPED,
    /** The target assignment changed and the assignment epoch moved. */
    ASSIGNMENT_EPOCH_BUMPED,
    /** The assignor failed; the previous target is kept. */
    ASSIGNOR_FAILED,
    /** A shard was taken out of a member's assigned set: the member must drain and revoke it. */
    SHARD_REVOKE_REQUESTED,
    /** A shard became free (revoked, left, expired or fenced). */
    SHARD_RELEASED,
    /** A shard was given to a member with a new owner epoch. */
    SHARD_GRANTED
}
