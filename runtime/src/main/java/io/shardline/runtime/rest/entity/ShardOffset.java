package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * The group's position on one shard ({@code GET /listeners/{name}/offsets}). Immutable.
 *
 * @param stream the logical stream
 * @param shard the shard index
 * @param lastDeliveredId the group's last delivered entry id ({@code 0-0} before the first); {@code null} when the
 *     group does not exist on the shard yet (the listener's {@code start.from} applies when it starts)
 * @param lag entries not yet delivered to the group, {@code null} when Redis cannot tell (e.g. after a move to an
 *     entry id, until the group reads to the end)
 * @param pending entries delivered and not yet acknowledged
 * @param oldestPendingId the oldest pending entry, {@code null} when none
 * @param oldestPendingAgeMs how old that entry is (the Redis server's time minus the entry id's time)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ShardOffset(String stream, int shard, String lastDeliveredId, Long lag, long pending,
                          String oldestPendingId, Long oldestPendingAgeMs) {

    /** Validates. */
    public ShardOffset {
        Objects.requireNonNull(stream, "stream");
    }
}
