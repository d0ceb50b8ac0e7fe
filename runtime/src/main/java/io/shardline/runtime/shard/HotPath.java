package io.shardline.runtime.shard;

/**
 * How the hot path's fenced ack-and-read ({@link ShardCommands#ackAndRead}, and reads of new entries) is done.
 * Both are fenced the same way: nothing is acknowledged or read unless Redis records this member and owner
 * epoch for the shard when the commands run. Takeover, replay of pending entries and lone acks always use the
 * script.
 */
public enum HotPath {
    /**
     * {@code WATCH} the owner key, check it, then {@code MULTI XACK XREADGROUP XREVRANGE EXEC} on a connection
     * of its own ({@link FencedTransaction}): two round trips, no per-entry script cost. The default on a
     * standalone Redis. A shard that keeps up (its last read brought at most {@link ShardCommands#smallRead} entries,
     * or none and it was woken) takes the script instead: one round trip, and few entries for Redis to convert, so a
     * record arriving at an idle or nearly idle shard is read one round trip sooner.
     */
    TRANSACTION,
    /**
     * One {@code FCALL shard_ack_read}: one round trip, but Redis converts every entry read to a Lua table and
     * back (about as costly as the read itself). Used on a Redis Cluster, and as the benchmark's reference.
     */
    SCRIPT
}
