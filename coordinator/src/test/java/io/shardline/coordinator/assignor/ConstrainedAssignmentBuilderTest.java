package io.shardline.coordinator.assignor;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import io.shardline.coordinator.assignor.testing.Assignments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One test per branch of the constrained sticky pseudocode (docs/assignors.md, "sticky"), through {@link StickyAssignor}. */
class ConstrainedAssignmentBuilderTest {

    private static final StickyAssignor STICKY = new StickyAssignor();

    private static MemberSubscription member(String id, int generation, int... owned) {
        return MemberSubscription.of(id, List.of("orders")).withOwned(Map.of("orders", ShardSet.of(owned)), generation);
    }

    private static ShardDescriber orders(int shards) {
        return ShardDescriber.of(StreamDescription.of("orders", shards));
    }

    @Test
    void ownedBelowFloorIsKeptAndFilledEqualToFloorIsKeptAboveFloorKeepsCeil() {
        // 6 shards, 3 members: floor = ceil = 2
        GroupSpec group = GroupSpec.of(member("A", 1, 0), member("B", 1, 1, 2), member("C", 1, 3, 4, 5));
        assertThat(STICKY.assign(group, orders(6))).isEqualTo(Assignments.builder()
                .member("A", "orders", 0, 5)
                .member("B", "orders", 1, 2)
                .member("C", "orders", 3, 4)
                .build());
    }

    @Test
    void ownedAboveFloorKeepsCeilAndMembersUnderFloorAreFilledFromUnassigned() {
        // 7 shards, 3 members: floor 2, ceil 3; A keeps ceil, C exactly floor, B (new) is filled
        GroupSpec group = GroupSpec.of(member("A", 1, 0, 1, 2, 3), MemberSubscription.of("B", List.of("orders")),
                member("C", 1, 4, 5));
        assertThat(STICKY.assign(group, orders(7))).isEqualTo(Assignments.builder()
                .member("A", "orders", 0, 1, 2)
                .member("B", "orders", 3, 6)
                .member("C", "orders", 4, 5)
                .build());
    }

    @Test
    void fillIsRoundRobinInMemberIdOrderOverStreamThenShardOrder() {
        GroupSpec group = GroupSpec.of(MemberSubscription.of("consumer1", List.of("t0", "t1")),
                MemberSubscription.of("consumer0", List.of("t0", "t1")));
        ShardDescriber shards = ShardDescriber.of(StreamDescription.of("t0", 3), StreamDescription.of("t1", 2));
        assertThat(STICKY.assign(group, shards)).isEqualTo(Assignments.builder()
                .member("consumer0", "t0", 0, 2).member("consumer0", "t1", 1)
                .member("consumer1", "t0", 1).member("consumer1", "t1", 0)
                .build());
    }

    @Test
    void membersUnderFloorStealFromMaxCapacityMembersWhenShardsRunOut() {
        // 4 shards, 3 members: floor 1, ceil 2; A and B both keep ceil, so C steals A's last kept shard
        GroupSpec group = GroupSpec.of(member("A", 1, 0, 1), member("B", 1, 2, 3),
                MemberSubscription.of("C", List.of("orders")));
        assertThat(STICKY.assign(group, orders(4))).isEqualTo(Assignments.builder()
                .member("A", "orders", 0)
                .member("B", "orders", 2, 3)
                .member("C", "orders", 1)
                .build());
    }

    @Test
    void remainingShardsGoOneEachToMembersAtFloorInTheOrderTheyReachedIt() {
        GroupSpec group = GroupSpec.of(MemberSubscription.of("C", List.of("orders")),
                MemberSubscription.of("A", List.of("orders")), MemberSubscription.of("B", List.of("orders")));
        assertThat(STICKY.assign(group, orders(5))).isEqualTo(Assignments.builder()
                .member("A", "orders", 0, 3)
                .member("B", "orders", 1, 4)
                .member("C", "orders", 2)
                .build());
    }

    @Test
    void higherGenerationWinsAClaimAndEqualGenerationsVoidIt() {
        // shard 1: B (gen 5) beats A (gen 3); shard 2: B and C tie at gen 5, so nobody keeps it
        GroupSpec group = GroupSpec.of(member("A", 3, 0, 1), member("B", 5, 1, 2), member("C", 5, 2, 3));
        GroupAssignment sticky = STICKY.assign(group, orders(6));
        assertThat(sticky).isEqualTo(Assignments.builder()
                .member("A", "orders", 0, 2)
                .member("B", "orders", 1, 4)
                .member("C", "orders", 3, 5)
                .build());
        // cooperative: shard 2 is still claimed by B and C, so A gets it only after they revoke it
        assertThat(new CooperativeStickyAssignor().assign(group, orders(6))).isEqualTo(Assignments.builder()
                .member("A", "orders", 0)
                .member("B", "orders", 1, 4)
                .member("C", "orders", 3, 5)
                .build());
    }

    @Test
    void ownedShardsOfStreamsNoLongerSubscribedOrGoneAreDropped() {
        MemberSubscription a = MemberSubscription.of("A", List.of("orders"))
                .withOwned(Map.of("orders", ShardSet.of(0, 9), "payments", ShardSet.of(0), "gone", ShardSet.of(1)), 2);
        GroupSpec group = GroupSpec.of(a, MemberSubscription.of("B", List.of("orders")));
        ShardDescriber shards = ShardDescriber.of(StreamDescription.of("orders", 2), StreamDescription.of("payments", 1));
        assertThat(STICKY.assign(group, shards)).isEqualTo(Assignments.builder()
                .member("A", "orders", 0)
                .member("B", "orders", 1)
                .build());
    }

    @Test
    void freshGroupShortcutEqualsTheFourStepsWithNothingOwned() {
        // a claim voided by an equal generation makes the builder run its four steps with no owner at all;
        // without any claim it takes the shortcut (shard s to member s mod n): both must agree
        int[][] sizes = {{1, 2, 5}, {2, 3, 2}, {3, 7, 4}, {2, 5, 10}, {4, 6, 3}};
        for (int[] size : sizes) {
            int streams = size[0];
            int shards = size[1];
            int members = size[2];
            List<String> names = new java.util.ArrayList<>();
            StreamDescription[] descriptions = new StreamDescription[streams];
            for (int t = 0; t < streams; t++) {
                names.add("s" + t);
                descriptions[t] = StreamDescription.of("s" + t, shards);
            }
            ShardDescriber describer = ShardDescriber.of(descriptions);
            List<MemberSubscription> fresh = new java.util.ArrayList<>();
            List<MemberSubscription> voided = new java.util.ArrayList<>();
            for (int m = 0; m < members; m++) {
                MemberSubscription member = MemberSubscription.of(String.format("m%02d", m), names);
                fresh.add(member);
                voided.add(m < 2 ? member.withOwned(Map.of("s0", ShardSet.of(0)), 3) : member);
            }
            GroupAssignment shortcut = STICKY.assign(new GroupSpec(fresh), describer);
            assertThat(shortcut).as("%d streams x %d shards, %d members", streams, shards, members)
                    .isEqualTo(STICKY.assign(new GroupSpec(voided), describer));
            assertThat(shortcut.member("m00").shardsOf("s0").get(0)).isZero();
        }
    }
}
