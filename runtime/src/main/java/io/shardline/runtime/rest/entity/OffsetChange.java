package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * One shard moved (or, in a dry run, to be moved) by {@code PATCH} or {@code DELETE /listeners/{name}/offsets}.
 * Immutable.
 *
 * @param stream the logical stream
 * @param shard the shard index
 * @param position the position asked for, as written (e.g. {@code -15m})
 * @param before the group's last delivered id before, {@code null} when the group did not exist on the shard
 * @param after the last delivered id after (the position resolved to an entry id)
 * @param pendingDropped the pending entries dropped from the group's pending list
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OffsetChange(String stream, int shard, String position, String before, String after,
                           long pendingDropped) {

    /** Validates. */
    public OffsetChange {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(position, "position");
        Objects.requireNonNull(after, "after");
    }
}
