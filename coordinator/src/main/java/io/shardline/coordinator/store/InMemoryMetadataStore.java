package io.shardline.coordinator.store;

import io.shardline.coordinator.record.CoordinatorRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link MetadataStore} in memory, for tests, simulations and single-process use. Each call is atomic
 * ({@code synchronized}). Counts refused writes so tests can assert that a deposed leader was refused.
 */
public final class InMemoryMetadataStore implements MetadataStore {

    private long leaderEpoch;
    private long revision;
    private final List<CoordinatorRecord> log = new ArrayList<>();
    private long refusedWrites;

    @Override
    public synchronized StoreState claimLeadership() {
        leaderEpoch++;
        return new StoreState(leaderEpoch, revision, log);
    }

    @Override
    public synchronized StoreState load() {
        return new StoreState(leaderEpoch, revision, log);
    }

    @Override
    public synchronized long append(long writerLeaderEpoch, long expectedRevision, List<CoordinatorRecord> records) {
        throwIfGuardFails(writerLeaderEpoch, expectedRevision);
        if (records.isEmpty()) {
            return revision;
        }
        log.addAll(records);
        return ++revision;
    }

    @Override
    public synchronized long compact(long writerLeaderEpoch, long expectedRevision, List<CoordinatorRecord> snapshot) {
        throwIfGuardFails(writerLeaderEpoch, expectedRevision);
        log.clear();
        log.addAll(snapshot);
        return ++revision;
    }

    /** How many writes were refused so far. */
    public synchronized long refusedWrites() {
        return refusedWrites;
    }

    /** The number of records in the log. */
    public synchronized int size() {
        return log.size();
    }

    private void throwIfGuardFails(long writerLeaderEpoch, long expectedRevision) {
        if (writerLeaderEpoch != leaderEpoch) {
            refusedWrites++;
            throw new StoreConflictException(StoreConflictException.Kind.STALE_LEADER_EPOCH, writerLeaderEpoch,
                    expectedRevision, leaderEpoch, revision);
        }
        if (expectedRevision != revision) {
            refusedWrites++;
            throw new StoreConflictException(StoreConflictException.Kind.REVISION_MISMATCH, writerLeaderEpoch,
                    expectedRevision, leaderEpoch, revision);
        }
    }
}
