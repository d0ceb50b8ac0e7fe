package io.shardline.runtime.reshard;

import io.vertx.core.Future;
import java.util.List;

/** The groups on a stream as the leader's coordinator hosts them, and the change of a group's shard set. */
public interface GroupShardSets {

    /**
     * A group on a stream.
     *
     * @param group the group
     * @param shards the stream's shard count in the group's managed shard set
     * @param members its members (0: nobody reads its shards)
     */
    record OnStream(String group, int shards, int members) {
    }

    /** Every group of the cluster that consumes {@code stream}. */
    Future<List<OnStream>> on(String stream);

    /** Sets {@code stream}'s count in {@code group}'s managed shard set (committed by the coordinator). */
    Future<Void> resize(String group, String stream, int shards, boolean rollback);
}
