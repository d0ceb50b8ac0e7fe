package io.shardline.coordinator;

import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.coordinator.assignment.AssignmentPendingException;
import io.shardline.coordinator.group.AssignorFailure;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.testing.CoordinatorTestContext;
import io.shardline.coordinator.testing.SimpleRangeAssignor;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BiFunction;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An assignor that throws, answers invalidly or is not ready leaves the group on its previous target: the failure
 * is audited and shown in the read model, members keep heartbeating, and a later successful run clears it.
 */
class AssignorFailureTest {

    /** What the assignor does next; a range assignment by default. */
    private BiFunction<GroupSpec, ShardDescriber, GroupAssignment> behaviour;
    private CoordinatorTestContext ctx;
    private int epochA;

    @BeforeEach
    void aOwnsEveryShard() {
        SimpleRangeAssignor range = new SimpleRangeAssignor();
        behaviour = range::assign;
        ctx = CoordinatorTestContext.builder().withShards(4).withAssignor(new Assignor() {
            @Override
            public String name() {
                return range.name();
            }

            @Override
            public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
                return behaviour.apply(group, shards);
            }
        }).build();
        epochA = ctx.join("A").memberEpoch();
        ctx.heartbeat("A", epochA, List.of(), List.of());
        assertEquals(new TreeSet<>(shards(0, 1, 2, 3)), ctx.member("A").assigned().keySet());
    }

    @Test
    void aThrowingAssignorKeepsThePreviousTargetAndIsReported() {
        behaviour = (g, s) -> {
            throw new IllegalStateException("boom");
        };
        int b = ctx.join("B").memberEpoch();
        assertEquals(ErrorCode.NONE, ctx.heartbeat("A", epochA, shards(0, 1, 2, 3), List.of()).error());
        assertEquals(new TreeSet<>(shards(0, 1, 2, 3)), ctx.group().target("A"));
        assertThat(ctx.group().target("B")).isEmpty();
        AssignorFailure failure = ctx.coordinator().describe(CoordinatorTestContext.GROUP).orElseThrow()
                .assignorFailure();
        assertThat(failure.message()).contains("failed for group", "boom");
        assertThat(ctx.audit()).anyMatch(e -> e.type() == AuditType.ASSIGNOR_FAILED && e.reason().contains("boom"));

        behaviour = new SimpleRangeAssignor()::assign;
        ctx.leave("B", b);
        assertNull(ctx.coordinator().describe(CoordinatorTestContext.GROUP).orElseThrow().assignorFailure());
    }

    @Test
    void anInvalidAnswerIsRefused() {
        // B joins; the assignor gives shard 0 to both members.
        behaviour = (g, s) -> GroupAssignment.of(Map.of(
                "A", MemberAssignment.of(Map.of(CoordinatorTestContext.STREAM, ShardSet.of(List.of(0, 1)))),
                "B", MemberAssignment.of(Map.of(CoordinatorTestContext.STREAM, ShardSet.of(List.of(0, 2))))));
        ctx.join("B");
        assertEquals(new TreeSet<>(shards(0, 1, 2, 3)), ctx.group().target("A"));
        assertThat(ctx.coordinator().describe(CoordinatorTestContext.GROUP).orElseThrow().assignorFailure().message())
                .contains("to more than one member");
    }

    @Test
    void aPendingAnswerChangesNothingAndIsAskedForAgainUntilItArrives() {
        behaviour = (g, s) -> {
            throw new AssignmentPendingException("still computing");
        };
        int b = ctx.join("B").memberEpoch();
        int recordsBefore = ctx.store().size();
        ctx.heartbeat("A", epochA, shards(0, 1, 2, 3), List.of());
        ctx.sleep(500);
        assertThat(ctx.audit()).noneMatch(e -> e.type() == AuditType.ASSIGNOR_FAILED);
        assertNull(ctx.coordinator().describe(CoordinatorTestContext.GROUP).orElseThrow().assignorFailure());
        assertEquals(new TreeSet<>(shards(0, 1, 2, 3)), ctx.group().target("A"));
        assertThat(ctx.store().size()).isEqualTo(recordsBefore);

        behaviour = new SimpleRangeAssignor()::assign;
        ctx.sleep(500);
        assertEquals(new TreeSet<>(shards(2, 3)), ctx.group().target("B"));
        assertEquals(ErrorCode.NONE, ctx.heartbeat("B", b, List.of(), List.of()).error());
    }
}
