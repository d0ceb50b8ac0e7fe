package io.shardline.coordinator.assignment;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.record.CoordinatorRecord;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A computed target assignment. Immutable.
 *
 * @param target every member's target shards
 * @param records the target records of members whose target changed, then the assignment epoch record
 * @param assignmentEpoch the assignment epoch after the change
 * @param changed true when some member's target changed
 * @param changedMembers the ids of the members whose target changed, sorted
 */
public record TargetResult(
        Map<String, SortedSet<ShardId>> target,
        List<CoordinatorRecord> records,
        int assignmentEpoch,
        boolean changed,
        SortedSet<String> changedMembers) {

    /** Copies. */
    public TargetResult {
        target = Map.copyOf(target);
        records = List.copyOf(records);
        changedMembers = Collections.unmodifiableSortedSet(new TreeSet<>(changedMembers));
    }
}
