package io.shardline.coordinator.group;

/**
 * Who holds a shard and the shard's owner epoch (its fencing token): the value the host writes to the group's
 * owner key of the shard {@code {<stream>:<i>}:owner:<group>}. The owner epoch of a shard grows by one with every grant and is kept
 * when the shard is released, so it never goes backwards. Immutable.
 *
 * @param memberId the member holding the shard (assigned or revoking), or null when the shard is free
 * @param ownerEpoch the owner epoch of the last grant, 0 when the shard was never granted
 */
public record ShardOwner(String memberId, int ownerEpoch) {

    /** A shard never granted. */
    public static final ShardOwner NEVER_OWNED = new ShardOwner(null, 0);

    /** True when no member holds the shard. */
    public boolean isFree() {
        return memberId == null;
    }
}
