package io.shardline.coordinator.assignment;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.record.CoordinatorRecord;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/**
 * A computed target assignment. Immutable.
 *
 * @param target every member's target shards
 * @param records the target records of members whose target changed, then the assignment epoch record
 * @param assignmentEpoch the assignment epoch after the change
 * @param changed true when some member's target changed
 */
public record TargetResult(
        Map<String, SortedSet<ShardId>> target,
        List<CoordinatorRecord> records,
        int assignmentEpoch,
        boolean changed) {

    /** Copies. */
    public TargetResult {
        target = Map.copyOf(target);
        records = List.copyOf(records);
    }
}
