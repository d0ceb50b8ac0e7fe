package io.shardline.coordinator;

import static io.shardline.coordinator.testing.CoordinatorTestContext.STREAM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.protocol.GroupConfigRefusedException;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.testing.CoordinatorTestContext;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The configuration of the highest revision wins: a newer one is applied (new group epoch, audited with the
 * changed settings), an older or a disagreeing one of the same revision is refused and changes nothing, the same
 * settings under a newer revision only record the revision, and a changed shard count from a listener is refused.
 */
class GroupConfigRevisionTest {

    private static CoordinatorTestContext versioned(long revision) {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(4);
        ctx.join("A");
        ctx.persist(ctx.coordinator().configureGroup(0, ctx.group().config().withRevision(revision),
                ChangeReason.CONFIG_CHANGED));
        return ctx;
    }

    @Test
    void aNewerRevisionIsAppliedAuditedAndBumpsTheGroupEpoch() {
        CoordinatorTestContext ctx = versioned(10);
        int epoch = ctx.group().groupEpoch();
        GroupConfig newer = longerSession(ctx.group().config(), 11);
        CoordinatorResult<Void> result = ctx.persist(ctx.coordinator().configureGroup(0, newer,
                ChangeReason.CONFIG_CHANGED));
        assertEquals(newer, ctx.group().config());
        assertEquals(epoch + 1, ctx.group().groupEpoch());
        assertThat(result.events()).anyMatch(e -> e.type() == AuditType.GROUP_CONFIGURED && e.reason().equals(
                "session.timeout.ms " + (newer.sessionTimeoutMs() - 1000) + " -> " + newer.sessionTimeoutMs()
                        + " (revision 11)"));
    }

    @Test
    void anOlderRevisionIsRefusedAndChangesNothing() {
        CoordinatorTestContext ctx = versioned(10);
        GroupConfig before = ctx.group().config();
        GroupConfigRefusedException e = assertThrows(GroupConfigRefusedException.class, () -> ctx.coordinator()
                .configureGroup(0, longerSession(before, 9), ChangeReason.CONFIG_CHANGED));
        assertThat(e.getMessage()).contains("revision 10", "older revision 9", "session.timeout.ms");
        assertEquals(before, ctx.group().config());
    }

    @Test
    void aDisagreementAtTheSameRevisionIsRefused() {
        CoordinatorTestContext ctx = versioned(10);
        GroupConfig before = ctx.group().config();
        GroupConfig other = new GroupConfig(before.groupId(), before.streams(), before.assignor(), before.protocol(),
                before.sessionTimeoutMs() * 2, before.heartbeatIntervalMs(), before.rebalanceTimeoutMs(), null, 10);
        GroupConfigRefusedException e = assertThrows(GroupConfigRefusedException.class,
                () -> ctx.coordinator().configureGroup(0, other, ChangeReason.CONFIG_CHANGED));
        assertThat(e.getMessage()).contains("same revision", "session.timeout.ms", "workers disagree");
        assertEquals(before, ctx.group().config());
    }

    @Test
    void theSameSettingsUnderANewerRevisionOnlyRecordTheRevision() {
        CoordinatorTestContext ctx = versioned(10);
        int epoch = ctx.group().groupEpoch();
        ctx.persist(ctx.coordinator().configureGroup(0, ctx.group().config().withRevision(12),
                ChangeReason.CONFIG_CHANGED));
        assertEquals(12, ctx.group().config().revision());
        assertEquals(epoch, ctx.group().groupEpoch());
        // An older definition with other settings stays refused against the recorded revision.
        assertThrows(GroupConfigRefusedException.class, () -> ctx.coordinator().configureGroup(0,
                longerSession(ctx.group().config(), 11), ChangeReason.CONFIG_CHANGED));
    }

    @Test
    void aChangedShardCountFromAListenerIsRefusedNamingBothCounts() {
        CoordinatorTestContext ctx = versioned(10);
        GroupConfig before = ctx.group().config();
        GroupConfigRefusedException e = assertThrows(GroupConfigRefusedException.class, () -> ctx.coordinator()
                .configureGroup(0, before.withStreams(Map.of(STREAM, 8)).withRevision(11),
                        ChangeReason.CONFIG_CHANGED));
        assertThat(e.getMessage()).contains(STREAM + ": 4 -> 8 shards", "docs/operations.md");
        assertEquals(before, ctx.group().config());
    }

    private static GroupConfig longerSession(GroupConfig c, long revision) {
        return new GroupConfig(c.groupId(), c.streams(), c.assignor(), c.protocol(), c.sessionTimeoutMs() + 1000,
                c.heartbeatIntervalMs(), c.rebalanceTimeoutMs(), c.racks(), revision);
    }
}
