package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * {@code GET /listeners/{name}/offsets}: the group's position on every shard of a listener. Immutable.
 *
 * @param listener the listener
 * @param group its consumer group
 * @param startFrom its {@code start.from} (where {@code DELETE .../offsets} goes back to)
 * @param shards every shard, in stream and index order
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ListenerOffsets(String listener, String group, String startFrom, List<ShardOffset> shards) {

    /** Validates and copies. */
    public ListenerOffsets {
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(startFrom, "startFrom");
        shards = List.copyOf(shards);
    }
}
