package io.shardline.coordinator.record;

/** Why an epoch moved, a member went away or a shard changed hands; carried by records and audit events. */
public enum ChangeReason {
    /** The group was configured for the first time. */
    GROUP_CREATED,
    /** The group's assignor, protocol or timeouts changed. */
    CONFIG_CHANGED,
    /** Shard-count migration changed the managed shard set. */
    SHARD_SET_CHANGED,
    /** A resharding was rolled back to the previous shard set. */
    RESHARD_ROLLBACK,
    /** A new member joined. */
    MEMBER_JOINED,
    /** A known member rejoined with epoch 0 (new lifecycle). */
    MEMBER_REJOINED,
    /** A static member came back with a new member id and took over its predecessor's target. */
    MEMBER_REPLACED,
    /** A member changed its subscriptions or rack. */
    SUBSCRIPTION_CHANGED,
    /** A member left gracefully. */
    MEMBER_LEFT,
    /** A static member left temporarily; its target stays reserved for one session timeout. */
    MEMBER_LEFT_STATIC,
    /** A member's lease passed without a heartbeat. */
    MEMBER_EXPIRED,
    /** A member's ownership report was invalid; it was fenced. */
    MEMBER_FENCED,
    /** A member did not report a revoked shard drained within the group's rebalance timeout; it was fenced. */
    REBALANCE_TIMEOUT,
    /** The member reported the shard revoked (or stopped reporting it under its current epoch). */
    REVOKED,
    /** The shard is given to the member by the target assignment. */
    TARGET
}
