package io.shardline.coordinator.protocol;

import io.shardline.api.handler.ShardId;
import java.util.Objects;

/**
 * A member's report about one shard it is giving back. Immutable.
 *
 * @param shard the shard
 * @param state draining or revoked
 */
public record RevokeReport(ShardId shard, RevokeState state) implements Comparable<RevokeReport> {

    /** Validates. */
    public RevokeReport {
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(state, "state");
    }

    /** Orders by shard. */
    @Override
    public int compareTo(RevokeReport other) {
        return shard.compareTo(other.shard);
    }
}
