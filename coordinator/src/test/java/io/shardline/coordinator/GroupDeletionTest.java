package io.shardline.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.coordinator.record.GroupDeletedRecord;
import io.shardline.coordinator.testing.CoordinatorTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Deleting a group: refused while it has members, a tombstone otherwise, forgotten by a successor too. */
class GroupDeletionTest {

    private static final String GROUP = CoordinatorTestContext.GROUP;

    @Test
    void testDeleteRefusedWhileMembersRemain() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        ctx.join("A");
        CoordinatorResult<GroupDeletion> result = ctx.persist(ctx.coordinator().deleteGroup(GROUP));
        assertEquals(new GroupDeletion(GroupDeletion.Outcome.HAS_MEMBERS, List.of("A")), result.response());
        assertEquals(List.of(), result.records());
        assertTrue(ctx.coordinator().group(GROUP).isPresent());
    }

    @Test
    void testDeleteEmptyGroupEmitsTombstoneThatSuccessorReplays() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        int epoch = ctx.join("A").memberEpoch();
        ctx.leave("A", epoch);
        CoordinatorResult<GroupDeletion> result = ctx.persist(ctx.coordinator().deleteGroup(GROUP));
        assertEquals(new GroupDeletion(GroupDeletion.Outcome.DELETED, List.of()), result.response());
        assertEquals(List.of(new GroupDeletedRecord(GROUP)), result.records());
        assertEquals(List.of(), List.copyOf(ctx.coordinator().groupIds()));
        assertEquals(List.of(), ctx.coordinator().snapshot());
        // A new leader replaying the whole log (config, members, tombstone) does not know the group either.
        GroupCoordinator successor = ctx.becomeLeader();
        assertEquals(List.of(), List.copyOf(successor.groupIds()));
        assertEquals(new GroupDeletion(GroupDeletion.Outcome.NOT_FOUND, List.of()),
                successor.deleteGroup(GROUP).response());
    }
}
