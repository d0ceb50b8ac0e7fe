package io.shardline.coordinator.store;

import io.shardline.coordinator.record.CoordinatorRecord;
import java.util.List;

/**
 * What a store holds: the leader epoch, the revision and the records in append order. Immutable.
 *
 * @param leaderEpoch the highest leader epoch ever claimed (0 before the first claim)
 * @param revision the store revision: grows by one with every committed, non-empty append or compaction
 * @param records the records, in the order they must be replayed
 */
public record StoreState(long leaderEpoch, long revision, List<CoordinatorRecord> records) {

    /** Copies. */
    public StoreState {
        records = List.copyOf(records);
    }
}
