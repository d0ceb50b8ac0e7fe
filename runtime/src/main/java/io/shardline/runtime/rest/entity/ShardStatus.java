package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * One shard of a listener, read from Redis: its owner (the group's owner hash
 * {@code {<stream>:<i>}:owner:<group>}), lag, pending count and last delivered entry ({@code XINFO GROUPS}).
 * Immutable.
 *
 * @param stream the logical stream
 * @param shard the shard index
 * @param owner the owning member id, {@code null} when unowned
 * @param ownerEpoch the owner epoch, -1 when unowned
 * @param state {@code PAUSED} when paused by REST, else {@code RUNNING} when owned, {@code UNASSIGNED} when not
 * @param lag entries not yet delivered to the group ({@code null} when Redis cannot tell, or no group yet)
 * @param pending entries delivered and not yet acknowledged
 * @param lastProcessedId the group's last delivered entry id, {@code null} before the first
 * @param oldestPendingMs how long ago the oldest pending entry was last delivered to its consumer
 *     ({@code XPENDING} idle time), {@code null} when nothing is pending
 * @param cutoverEpoch the routing epoch whose cutover the group's reads of the shard wait at (everything up to it read,
 *     the group's barrier there not released yet; docs/protocol.md section 8b), {@code null} when not waiting
 * @param cutoverSinceMs since when it waits there (epoch milliseconds, Redis's clock), {@code null} when not waiting
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ShardStatus(String stream, int shard, String owner, long ownerEpoch, ListenerState state, Long lag,
                          long pending, String lastProcessedId, Long oldestPendingMs, Long cutoverEpoch,
                          Long cutoverSinceMs) {

    /** A status without the age of the oldest pending entry. */
    public ShardStatus(String stream, int shard, String owner, long ownerEpoch, ListenerState state, Long lag,
                       long pending, String lastProcessedId) {
        this(stream, shard, owner, ownerEpoch, state, lag, pending, lastProcessedId, null);
    }

    /** A status of a shard not waiting at a cutover. */
    public ShardStatus(String stream, int shard, String owner, long ownerEpoch, ListenerState state, Long lag,
                       long pending, String lastProcessedId, Long oldestPendingMs) {
        this(stream, shard, owner, ownerEpoch, state, lag, pending, lastProcessedId, oldestPendingMs, null, null);
    }

    /** The same status, waiting at the cutover of routing epoch {@code epoch} since {@code sinceMs}. */
    public ShardStatus withCutover(long epoch, long sinceMs) {
        return new ShardStatus(stream, shard, owner, ownerEpoch, state, lag, pending, lastProcessedId, oldestPendingMs,
                epoch, sinceMs);
    }

    /** The same status in another state. */
    public ShardStatus withState(ListenerState newState) {
        return new ShardStatus(stream, shard, owner, ownerEpoch, newState, lag, pending, lastProcessedId, oldestPendingMs,
                cutoverEpoch, cutoverSinceMs);
    }

    /** Validates. */
    public ShardStatus {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(state, "state");
    }
}
