package io.shardline.coordinator.assignor;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import io.shardline.coordinator.assignor.testing.AssignmentChecks;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import io.shardline.coordinator.assignor.testing.Assignments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The worked examples of docs/assignors.md ("sticky" and "cooperative-sticky"), and the general path. */
class StickyAssignorExamplesTest {

    private static final StickyAssignor STICKY = new StickyAssignor();
    private static final CooperativeStickyAssignor COOPERATIVE = new CooperativeStickyAssignor();
    private static final List<String> BOTH = List.of("t0", "t1");

    @Test
    void constrainedWithoutRacksNoPreviousOwnership() {
        GroupSpec group = GroupSpec.of(MemberSubscription.of("consumer0", BOTH), MemberSubscription.of("consumer1", BOTH));
        ShardDescriber shards = ShardDescriber.of(StreamDescription.of("t0", 3), StreamDescription.of("t1", 2));
        assertThat(STICKY.assign(group, shards)).isEqualTo(Assignments.builder()
                .member("consumer0", "t0", 0, 2).member("consumer0", "t1", 1)
                .member("consumer1", "t0", 1).member("consumer1", "t1", 0)
                .build());
    }

    @Test
    void constrainedRackAwareNoPreviousOwnership() {
        // t0-p2 and t1-p1 live on a rack without consumers; t0-p0 and t1-p0 on consumer1's, t0-p1 on consumer0's
        GroupSpec group = GroupSpec.of(MemberSubscription.of("consumer0", BOTH).withRack("rackA"),
                MemberSubscription.of("consumer1", BOTH).withRack("rackB"));
        ShardDescriber shards = ShardDescriber.of(Assignments.streamWithRacks("t0", "rackB", "rackA", "rackC"),
                Assignments.streamWithRacks("t1", "rackB", "rackC"));
        assertThat(STICKY.assign(group, shards)).isEqualTo(Assignments.builder()
                .member("consumer0", "t0", 1, 2)
                .member("consumer1", "t0", 0).member("consumer1", "t1", 0, 1)
                .build());
    }

    @Test
    void constrainedRackAwareWithPreviousOwnershipKeepsRackMatchingOwnedShardsFirst() {
        // consumer0 owned t0-p0, t0-p1, t1-p0 and may keep two (maxQuota); t0-p1 is not on its rack
        MemberSubscription c0 = MemberSubscription.of("consumer0", BOTH).withRack("rackA")
                .withOwned(Map.of("t0", ShardSet.of(0, 1), "t1", ShardSet.of(0)), 3);
        GroupSpec group = GroupSpec.of(c0, MemberSubscription.of("consumer1", BOTH).withRack("rackB"));
        ShardDescriber shards = ShardDescriber.of(Assignments.streamWithRacks("t0", "rackA", "rackB"),
                Assignments.streamWithRacks("t1", "rackA"));
        assertThat(STICKY.assign(group, shards)).isEqualTo(Assignments.builder()
                .member("consumer0", "t0", 0).member("consumer0", "t1", 0)
                .member("consumer1", "t0", 1)
                .build());
    }

    @Test
    void cooperativeWithholdsAShardMovingBetweenLiveOwnersUntilItIsRevoked() {
        // consumer0 owns all three shards; consumer1 joins. Sticky moves t0-p2 to consumer1 at once.
        MemberSubscription c0 = MemberSubscription.of("consumer0", List.of("t0"))
                .withOwned(Map.of("t0", ShardSet.of(0, 1, 2)), 1);
        GroupSpec group = GroupSpec.of(c0, MemberSubscription.of("consumer1", List.of("t0")));
        ShardDescriber shards = ShardDescriber.of(StreamDescription.of("t0", 3));
        GroupAssignment sticky = Assignments.builder()
                .member("consumer0", "t0", 0, 1)
                .member("consumer1", "t0", 2)
                .build();
        assertThat(STICKY.assign(group, shards)).isEqualTo(sticky);

        // round 1: consumer0 revokes t0-p2, consumer1 does not get it yet
        GroupAssignment first = COOPERATIVE.assign(group, shards);
        assertThat(first).isEqualTo(Assignments.builder()
                .member("consumer0", "t0", 0, 1)
                .member("consumer1")
                .build());

        // round 2: with t0-p2 released, consumer1 gets it: the sticky result
        GroupSpec applied = StickyPropertiesTest.applied(group, first);
        assertThat(COOPERATIVE.assign(applied, shards)).isEqualTo(sticky);
    }

    @Test
    void generalPathBalancesAroundOneOddMember() {
        // two members read both streams, one reads only t0: everyone gets two shards, the odd one only t0's
        GroupSpec group = GroupSpec.of(MemberSubscription.of("a", BOTH), MemberSubscription.of("b", BOTH),
                MemberSubscription.of("odd", List.of("t0")));
        ShardDescriber shards = ShardDescriber.of(StreamDescription.of("t0", 3), StreamDescription.of("t1", 3));
        GroupAssignment result = STICKY.assign(group, shards);
        AssignmentChecks.assertValid(AssignmentProblem.of(group, shards), result);
        assertThat(result.members().values()).allSatisfy(m -> assertThat(m.size()).isEqualTo(2));
        assertThat(result.member("odd").shardsOf("t0").size()).isEqualTo(2);
    }

    @Test
    void generalPathKeepsEveryOwnedShardWhenAMemberLeaves() {
        // before: a {t0: 0, 1}, b {t1: 0, 1}, c {t0: 2, t1: 2}; c leaves: only c's shards move
        MemberSubscription a = MemberSubscription.of("a", List.of("t0")).withOwned(Map.of("t0", ShardSet.of(0, 1)), 4);
        MemberSubscription b = MemberSubscription.of("b", BOTH).withOwned(Map.of("t1", ShardSet.of(0, 1)), 4);
        GroupSpec group = GroupSpec.of(a, b);
        ShardDescriber shards = ShardDescriber.of(StreamDescription.of("t0", 3), StreamDescription.of("t1", 3));
        GroupAssignment result = STICKY.assign(group, shards);
        assertThat(AssignmentChecks.moves(group, result)).isZero();
        assertThat(result.member("a").shardsOf("t0")).isEqualTo(ShardSet.of(0, 1, 2));
        assertThat(result.member("b").shardsOf("t1")).isEqualTo(ShardSet.of(0, 1, 2));
    }

    @Test
    void generalPathMovesOneShardAlongAChainWhenThatIsTheOnlyWayToBalance() {
        // x reads t0 only and has nothing; t0 is all with y, who also reads t1; t1 is with z
        // x can only be fed by y, so y hands a t0 shard to x and takes nothing back
        MemberSubscription y = MemberSubscription.of("y", BOTH).withOwned(Map.of("t0", ShardSet.of(0, 1, 2)), 2);
        MemberSubscription z = MemberSubscription.of("z", List.of("t1")).withOwned(Map.of("t1", ShardSet.of(0)), 2);
        GroupSpec group = GroupSpec.of(MemberSubscription.of("x", List.of("t0")), y, z);
        ShardDescriber shards = ShardDescriber.of(StreamDescription.of("t0", 3), StreamDescription.of("t1", 1));
        GroupAssignment result = STICKY.assign(group, shards);
        assertThat(result.members().values().stream().mapToInt(m -> m.size()).sorted().toArray())
                .containsExactly(1, 1, 2);
        assertThat(AssignmentChecks.moves(group, result)).isEqualTo(1);
    }
}
