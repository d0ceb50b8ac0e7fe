package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * One recent coordinator decision ({@code GET /groups/{group}/audit}), as stored in the group's audit stream
 * ({@link io.shardline.runtime.store.RedisAuditLog}). Immutable.
 *
 * @param timeMs when the decision was committed, by the Redis server's clock (epoch milliseconds; the id of its
 *     entry in the group's audit stream)
 * @param type what happened, e.g. {@code MEMBER_EXPIRED}
 * @param memberId the member concerned, {@code null} when none
 * @param shard the shard concerned ({@code stream:index}), {@code null} when none
 * @param groupEpoch the group epoch after the decision
 * @param assignmentEpoch the assignment epoch after the decision
 * @param memberEpoch the member (or owner) epoch after the decision, -1 when none
 * @param reason why, in words
 * @param before a moved position's last delivered id before ({@code OFFSET_RESET}), else {@code null}
 * @param after a moved position's last delivered id after ({@code OFFSET_RESET}), else {@code null}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AuditEntry(long timeMs, String type, String memberId, String shard, int groupEpoch,
                         int assignmentEpoch, int memberEpoch, String reason, String before, String after) {

    /** Validates. */
    public AuditEntry {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(reason, "reason");
    }
}
