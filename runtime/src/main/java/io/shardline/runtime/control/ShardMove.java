package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import java.util.Objects;

/**
 * One move of a group's position asked for: a shard (or, with {@code shard == null}, every shard of the listener)
 * to {@code position}. Immutable.
 *
 * @param shard the shard, {@code null} for all
 * @param position where to
 */
public record ShardMove(ShardId shard, ShardPosition position) {

    /** Validates. */
    public ShardMove {
        Objects.requireNonNull(position, "position");
    }
}
