package io.shardline.coordinator;

import io.shardline.api.handler.ShardId;
import java.util.Objects;
import java.util.Optional;

/**
 * One audited coordinator decision, for the audit log and REST. Immutable.
 *
 * @param timeMs the coordinator time of the decision
 * @param groupId the group
 * @param type what happened
 * @param memberId the member concerned, empty string when none
 * @param shard the shard concerned, if any
 * @param groupEpoch the group epoch after the decision
 * @param assignmentEpoch the assignment epoch after the decision
 * @param memberEpoch the member's epoch after the decision (or the shard's owner epoch for shard events), -1 if none
 * @param reason why, in words
 */
public record AuditEvent(
        long timeMs,
        String groupId,
        AuditType type,
        String memberId,
        Optional<ShardId> shard,
        int groupEpoch,
        int assignmentEpoch,
        int memberEpoch,
        String reason) {

    /** Validates. */
    public AuditEvent {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(type, "type");
        memberId = Objects.requireNonNullElse(memberId, "");
        shard = Objects.requireNonNullElse(shard, Optional.empty());
        reason = Objects.requireNonNullElse(reason, "");
    }
}
