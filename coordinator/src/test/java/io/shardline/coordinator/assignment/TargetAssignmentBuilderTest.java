package io.shardline.coordinator.assignment;

import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.record.AssignmentEpochRecord;
import io.shardline.coordinator.record.TargetAssignmentRecord;
import io.shardline.coordinator.testing.SimpleRangeAssignor;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TargetAssignmentBuilderTest {

    private final GroupConfig config = GroupConfig.of("g", Map.of("orders", 4), "test-range", 3000, 500);
    private final Member a = new Member.Builder("A").setSubscriptions(List.of("orders")).build();
    private final Member b = new Member.Builder("B").setSubscriptions(List.of("orders")).build();

    private static Assignor fixed(Map<String, MemberAssignment> answer) {
        return new Assignor() {
            @Override
            public String name() {
                return "fixed";
            }

            @Override
            public GroupAssignment assign(io.shardline.api.assignor.GroupSpec group,
                    io.shardline.api.assignor.ShardDescriber shards) {
                return GroupAssignment.of(answer);
            }
        };
    }

    private static MemberAssignment of(int... shards) {
        return MemberAssignment.of(Map.of("orders", ShardSet.of(shards)));
    }

    @Test
    void onlyChangedMembersGetRecordsAndTheEpochMovesOnlyOnChange() {
        SortedSet<ShardId> aBefore = new TreeSet<>(shards(0, 1));
        TargetResult r = new TargetAssignmentBuilder(config, new SimpleRangeAssignor()).withMembers(List.of(a, b))
                .withTarget(Map.of("A", aBefore, "B", new TreeSet<>(shards(2))))
                .withAssignmentEpoch(7).withGroupEpoch(9).build();
        assertTrue(r.changed());
        assertEquals(new TreeSet<>(List.of("B")), r.changedMembers());
        assertSame(aBefore, r.target().get("A"), "an unchanged target is reused, not rebuilt");
        assertEquals(List.of(new TargetAssignmentRecord("g", "B", new TreeSet<>(shards(2, 3))),
                new AssignmentEpochRecord("g", 8, 9)), r.records());
        TargetResult again = new TargetAssignmentBuilder(config, new SimpleRangeAssignor()).withMembers(List.of(a, b))
                .withTarget(r.target()).withAssignmentEpoch(8).withGroupEpoch(10).build();
        assertFalse(again.changed());
        assertEquals(List.of(new AssignmentEpochRecord("g", 8, 10)), again.records());
    }

    @Test
    void refusesAShardGivenTwice() {
        AssignorException e = assertThrows(AssignorException.class, () -> new TargetAssignmentBuilder(config,
                fixed(Map.of("A", of(0, 1), "B", of(1)))).withMembers(List.of(a, b)).build());
        assertTrue(e.getMessage().contains("orders:1 to more than one member"), e.getMessage());
    }

    @Test
    void refusesOutOfRangeUnknownMemberAndUnsubscribedStream() {
        assertThrows(AssignorException.class, () -> new TargetAssignmentBuilder(config, fixed(Map.of("A", of(4))))
                .withMembers(List.of(a, b)).build());
        assertThrows(AssignorException.class, () -> new TargetAssignmentBuilder(config, fixed(Map.of("Z", of(0))))
                .withMembers(List.of(a, b)).build());
        Member reader = new Member.Builder("C").setSubscriptions(List.of("payments")).build();
        assertThrows(AssignorException.class, () -> new TargetAssignmentBuilder(config, fixed(Map.of("C", of(0))))
                .withMembers(List.of(reader)).build());
    }
}
