package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code GET /streams} and {@code GET /streams/{stream}}: a logical stream's topology (docs/protocol.md, "The
 * topology record") and the groups that consume it. Immutable.
 *
 * @param stream the stream name
 * @param shards its shard count
 * @param routingEpoch its routing epoch
 * @param state {@code STABLE}, {@code RESHARDING} or {@code ROLLING_BACK}
 * @param history the last changes of the topology, oldest first
 * @param groups the groups of this cluster on the stream, sorted
 * @param fromShards while a change runs: the shard count before it; null when stable
 * @param layouts while a change runs: routing epoch to shard count, from the stable epoch on; null when stable
 * @param progress while a change runs: the leader's last report (per group: shards past the last barrier, shards
 *     waiting at a cutover and the parents they wait for, shards left out not drained yet; what blocks the change);
 *     null when stable or not reported yet
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StreamView(String stream, int shards, long routingEpoch, String state, List<Change> history,
                         List<String> groups, Integer fromShards, Map<String, Integer> layouts,
                         Map<String, Object> progress) {

    /**
     * One change of a topology.
     *
     * @param routingEpoch the routing epoch it started
     * @param shards the shard count after it
     * @param state the state it entered
     * @param atMs when, on the Redis server's clock
     * @param reason who or what made it
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Change(long routingEpoch, int shards, String state, long atMs, String reason) {
    }

    /** Validates and copies. */
    public StreamView {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(state, "state");
        history = List.copyOf(history);
        groups = List.copyOf(groups);
    }
}
