package io.shardline.api.handler;

/**
 * A handler's view of one owned shard: passed with every batch and to the per-shard callbacks.
 *
 * <p>{@link #ownerEpoch()} is the shard's owner epoch in Redis at the time this member acquired the
 * shard. It only grows when the shard changes hands, so a downstream system can use the pair
 * ({@link #shard()}, {@link #ownerEpoch()}) as a fencing token: reject writes carrying an epoch lower than
 * one already seen for that shard. Immutable for the life of one ownership; a later acquisition of the
 * same shard gets a new context.
 */
public interface ShardContext {

    /** The shard. */
    ShardId shard();

    /** The owner epoch under which this member holds the shard (a fencing token, strictly increasing per shard). */
    long ownerEpoch();

    /** The member-level context (listener, member id, config, metrics). */
    HandlerContext handlerContext();

    /** {@code <stream>:<index>@<epoch>}: the fencing token as one string, e.g. for an HTTP header. */
    default String fencingToken() {
        return shard() + "@" + ownerEpoch();
    }
}
