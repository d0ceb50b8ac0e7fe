package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * The answer of {@code POST /listeners/{name}/dead-letters/redrive}: what was (or, in a dry run, would be) written
 * back and removed from the dead-letter stream. Immutable.
 *
 * @param message what was done
 * @param dryRun whether nothing was changed ({@code ?dry_run=true})
 * @param redriven per dead letter, oldest first
 * @param skipped ids that were gone from the dead-letter stream when their turn came (redriven or removed meanwhile)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Redriven(String message, boolean dryRun, List<Letter> redriven, List<String> skipped) {

    /** Validates and copies. */
    public Redriven {
        Objects.requireNonNull(message, "message");
        redriven = List.copyOf(redriven);
        skipped = List.copyOf(skipped);
    }

    /**
     * One dead letter written back.
     *
     * @param id its id in the dead-letter stream
     * @param to the stream key it was written to ({@code {orders:3}} for a shard)
     * @param stream the logical stream when it went back to a shard, {@code null} for {@code to_stream}
     * @param shard the shard index when it went back to a shard
     * @param newId its new entry id, {@code null} in a dry run
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Letter(String id, String to, String stream, Integer shard, String newId) {

        /** Validates. */
        public Letter {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(to, "to");
        }
    }
}
