package io.shardline.coordinator.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.coordinator.AuditEvent;
import io.shardline.coordinator.AuditType;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.record.Records;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The group log's contract as {@link GroupLogModel} keeps it (the runtime's {@code RedisGroupLogTest} on Redis). */
class GroupLogModelTest {

    private final MockTime time = new MockTime(1_000);
    private final GroupLogModel log = new GroupLogModel(time::milliseconds, 2);
    private final List<CoordinatorRecord> one = List.of(Records.newGroupEpochRecord("g", 1, ChangeReason.GROUP_CREATED));

    private static AuditEvent event(String member) {
        return new AuditEvent(0, "g", AuditType.MEMBER_JOINED, member, Optional.empty(), 1, 0, 1, "");
    }

    @Test
    void appendIsACompareAndSetOnTheRevision() {
        long leader = log.claim("w1", -1, 1, -1, "r").state().leaderEpoch();
        assertEquals(1, log.append(leader, 0, "r", one, List.of()));
        GroupLogModel.Refused e = assertThrows(GroupLogModel.Refused.class, () -> log.append(leader, 0, "r", one,
                List.of(event("m1"))));
        assertEquals(GroupLogModel.Refused.Kind.REVISION_MISMATCH, e.kind());
        assertEquals(1, log.load().records().size());
        assertEquals(List.of(), log.audit("g"), "a refused write stores no audit event either");
    }

    @Test
    void aDeposedLeaderIsRefusedEvenForEmptyAppends() {
        long old = log.claim("w1", -1, 1, -1, "r").state().leaderEpoch();
        long rev = log.append(old, 0, "r", one, List.of());
        GroupLogModel.State next = log.claim("w2", old, 1, -1, "r").state();
        assertEquals(old + 1, next.leaderEpoch());
        assertEquals("w2", next.holder());
        GroupLogModel.Refused e = assertThrows(GroupLogModel.Refused.class, () -> log.append(old, rev, "r", List.of(),
                List.of()));
        assertEquals(GroupLogModel.Refused.Kind.STALE_LEADER_EPOCH, e.kind());
        assertEquals(1, log.refusedWrites());
        assertEquals(rev, log.append(next.leaderEpoch(), rev, "r", List.of(), List.of()), "an empty append keeps the "
                + "revision");
    }

    @Test
    void compactReplacesTheLogAndAuditStreamsAreCapped() {
        long leader = log.claim("w1", -1, 1, -1, "r").state().leaderEpoch();
        long rev = log.append(leader, 0, "r", one, List.of(event("m1"), event("m2")));
        rev = log.append(leader, rev, "r", one, List.of(event("m3")));
        assertEquals(3, log.compact(leader, rev, "r", one, List.of()));
        assertEquals(one, log.load().records());
        assertEquals(List.of(event("m2"), event("m3")), log.audit("g"));
    }

    @Test
    void aClaimIsACompareAndSetOnTheLeaderEpochAndReturnsTheWriteBeforeIt() {
        assertEquals(Optional.empty(), log.claim("w1", 0, 2, 500, "r").lastWrite());
        time.sleep(300);
        GroupLogModel.Claim stale = log.claim("w2", 0, 2, -1, "r");
        assertFalse(stale.won(), "the epoch moved past the one w2 saw");
        GroupLogModel.Claim taken = log.claim("w2", 1, 2, -1, "r2");
        assertTrue(taken.won());
        assertEquals(Optional.of(new GroupLogModel.LastWrite("r", 300)), taken.lastWrite());
        assertEquals(new GroupLogModel.Status(2, "w2", 0, 2), log.status());
    }

    @Test
    void aLiveHolderIsDeposedOnlyByALargerViewOrAfterItsSilence() {
        log.claim("w1", -1, 2, -1, "r");
        time.sleep(100);
        assertFalse(log.claim("w2", 1, 2, 500, "r").won(), "w1 wrote 100 ms ago and sees as many workers");
        assertTrue(log.recordView(1, 3));
        assertFalse(log.claim("w2", 1, 3, 500, "r").won(), "w1 now sees 3");
        assertTrue(log.claim("w2", 1, 4, 500, "r").won(), "the larger side of a split");
        assertFalse(log.recordView(1, 5), "w1 was deposed");
        time.sleep(500);
        assertEquals(new GroupLogModel.Status(2, "w2", 500, 4), log.status());
        assertTrue(log.claim("w3", 2, 1, 500, "r").won(), "w2 went silent");
    }
}
