package io.shardline.coordinator.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.record.Records;
import java.util.List;
import org.junit.jupiter.api.Test;

class InMemoryMetadataStoreTest {

    private final InMemoryMetadataStore store = new InMemoryMetadataStore();
    private final List<CoordinatorRecord> one = List.of(Records.newGroupEpochRecord("g", 1, ChangeReason.GROUP_CREATED));

    @Test
    void appendIsACompareAndSetOnTheRevision() {
        long leader = store.claimLeadership().leaderEpoch();
        assertEquals(1, store.append(leader, 0, one));
        StoreConflictException e = assertThrows(StoreConflictException.class, () -> store.append(leader, 0, one));
        assertEquals(StoreConflictException.Kind.REVISION_MISMATCH, e.kind());
        assertEquals(1, store.load().records().size());
    }

    @Test
    void deposedLeaderIsRefusedEvenForEmptyAppends() {
        long old = store.claimLeadership().leaderEpoch();
        long rev = store.append(old, 0, one);
        StoreState next = store.claimLeadership();
        assertEquals(old + 1, next.leaderEpoch());
        StoreConflictException e = assertThrows(StoreConflictException.class, () -> store.append(old, rev, List.of()));
        assertEquals(StoreConflictException.Kind.STALE_LEADER_EPOCH, e.kind());
        assertThrows(StoreConflictException.class, () -> store.append(old, rev, one));
        assertEquals(2, store.refusedWrites());
        assertEquals(rev, store.append(next.leaderEpoch(), rev, List.of()));
    }

    @Test
    void compactReplacesTheLog() {
        long leader = store.claimLeadership().leaderEpoch();
        long rev = store.append(leader, 0, one);
        rev = store.append(leader, rev, one);
        assertEquals(3, store.compact(leader, rev, one));
        assertEquals(one, store.load().records());
    }
}
