package io.shardline.runtime.reshard;

/**
 * One step the leader's task carries out for a stream's change ({@link Reshard#decide}), in the order given.
 * Every step is idempotent, so a leader that takes over mid-change and decides again repeats none harmfully.
 */
public sealed interface Decision {

    /** Write the machine's plan (state, layouts, step) to the topology record before anything that depends on it. */
    record Persist() implements Decision {
    }

    /** Flip shard {@code shard}'s routing hash to {@code epoch} (records its cutover; the routing library). */
    record Flip(int shard, long epoch) implements Decision {
    }

    /** Create consumer group {@code group} at {@code 0} on the new shard {@code shard}. */
    record CreateGroup(String group, int shard) implements Decision {
    }

    /** Set group {@code group}'s managed shard set of the stream to {@code shards} through the coordinator. */
    record Resize(String group, int shards, boolean rollback) implements Decision {
    }

    /** Write {@code released:<group> = epoch} on shard {@code shard}: its barrier passed for that group. */
    record Release(String group, int shard, long epoch) implements Decision {
    }

    /** Remove shard {@code shard}'s keys: every group drained it and no layout routes to it any more. */
    record Retire(int shard) implements Decision {
    }

    /**
     * The change is over: remove the finished epochs' {@code cutover:*} and every {@code released:*} field of shards
     * {@code [0, shards)}, and store the stream {@code STABLE} with {@code shards} under {@code epoch}.
     */
    record Complete(long epoch, int shards) implements Decision {
    }
}
