package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * The answer of {@code PATCH} and {@code DELETE /listeners/{name}/offsets} (Connect KIP-875's {@code message}, plus
 * what changed). Immutable.
 *
 * @param message what was done
 * @param dryRun whether nothing was changed ({@code ?dry_run=true}: the changes are what would be done)
 * @param changes per shard, in stream and index order
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record OffsetsAltered(String message, boolean dryRun, List<OffsetChange> changes) {

    /** Validates and copies. */
    public OffsetsAltered {
        Objects.requireNonNull(message, "message");
        changes = List.copyOf(changes);
    }
}
