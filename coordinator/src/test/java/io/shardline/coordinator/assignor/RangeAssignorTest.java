package io.shardline.coordinator.assignor;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.StreamDescription;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import io.shardline.coordinator.assignor.testing.Assignments;
import io.shardline.coordinator.assignor.testing.KafkaOracle;
import io.shardline.api.assignor.ShardSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The worked examples of docs/assignors.md ("range", with and without racks, and over consumer threads),
 * plus Kafka's own Javadoc example and the member order. Each expectation is also checked against Kafka.
 */
class RangeAssignorTest {

    private final RangeAssignor assignor = new RangeAssignor();

    @Test
    void seed001ThreeShardsTwoMembersFirstMemberGetsTheExtraShard() {
        AssignmentProblem p = problem(ShardDescriber.of(StreamDescription.of("t0", 3)),
                member("consumer-test-group-2-UUID", "t0"),
                member("consumer-test-group-1-UUID", "t0"));
        assertAssigns(p, Assignments.builder()
                .member("consumer-test-group-1-UUID", "t0", 0, 1)
                .member("consumer-test-group-2-UUID", "t0", 2)
                .build());
    }

    @Test
    void seed003FiveShardsOverFourConsumerThreads() {
        AssignmentProblem p = problem(ShardDescriber.of(StreamDescription.of("orders", 5)),
                member("C2-1", "orders"), member("C1-1", "orders"), member("C2-0", "orders"), member("C1-0", "orders"));
        assertAssigns(p, Assignments.builder()
                .member("C1-0", "orders", 0, 1)
                .member("C1-1", "orders", 2)
                .member("C2-0", "orders", 3)
                .member("C2-1", "orders", 4)
                .build());
    }

    @Test
    void kafkaJavadocExampleWorksPerStream() {
        AssignmentProblem p = problem(ShardDescriber.of(StreamDescription.of("t0", 3), StreamDescription.of("t1", 3)),
                member("C1", "t0", "t1"), member("C0", "t0", "t1"));
        assertAssigns(p, Assignments.builder()
                .member("C0", "t0", 0, 1).member("C0", "t1", 0, 1)
                .member("C1", "t0", 2).member("C1", "t1", 2)
                .build());
    }

    @Test
    void membersWithInstanceIdsComeFirstByInstanceIdThenTheOthersByMemberId() {
        AssignmentProblem p = problem(ShardDescriber.of(StreamDescription.of("t0", 5)),
                member("a", "t0"),
                member("b", "t0").withInstanceId("i1"),
                member("c", "t0").withInstanceId("i0"),
                member("0", "t0"));
        assertAssigns(p, Assignments.builder()
                .member("c", "t0", 0, 1)
                .member("b", "t0", 2)
                .member("0", "t0", 3)
                .member("a", "t0", 4)
                .build());
    }

    @Test
    void seed001RackAwareCoPartitionedStreamsGiveShardZeroOfBothToTheRackLocalMember() {
        // Shard 0 of t0 and t1 lives on rack-0, where consumer 1 runs; shards 1 and 2 on rack-2, where nobody runs.
        ShardDescriber streams = ShardDescriber.of(
                Assignments.streamWithRacks("t0", "rack-0", "rack-2", "rack-2"),
                Assignments.streamWithRacks("t1", "rack-0", "rack-2", "rack-2"));
        AssignmentProblem p = problem(streams,
                member("consumer0", "t0", "t1").withRack("rack-1"),
                member("consumer1", "t0", "t1").withRack("rack-0"));
        assertAssigns(p, Assignments.builder()
                .member("consumer0", "t0", 1, 2).member("consumer0", "t1", 1, 2)
                .member("consumer1", "t0", 0).member("consumer1", "t1", 0)
                .build());
    }

    @Test
    void coPartitionedShardGoesToARackLocalMemberOnlyWhenItIsLocalForEveryStream() {
        // Shard 0 is on rack-b for t0 but on rack-a for t1: nobody matches both, so plain ranges decide it.
        ShardDescriber streams = ShardDescriber.of(
                Assignments.streamWithRacks("t0", "rack-b", "rack-b"),
                Assignments.streamWithRacks("t1", "rack-a", "rack-b"));
        AssignmentProblem p = problem(streams,
                member("A", "t0", "t1").withRack("rack-a"),
                member("B", "t0", "t1").withRack("rack-b"));
        assertAssigns(p, Assignments.builder()
                .member("A", "t0", 0).member("A", "t1", 0)
                .member("B", "t0", 1).member("B", "t1", 1)
                .build());
    }

    @Test
    void singleStreamRackAwareTakesRackLocalShardsWithinTheQuota() {
        ShardDescriber streams = ShardDescriber.of(
                Assignments.streamWithRacks("t0", "rack-b", "rack-a", "rack-b", "rack-a"));
        AssignmentProblem p = problem(streams,
                member("A", "t0").withRack("rack-a"),
                member("B", "t0").withRack("rack-b"));
        assertAssigns(p, Assignments.builder()
                .member("A", "t0", 1, 3)
                .member("B", "t0", 0, 2)
                .build());
    }

    @Test
    void specExampleWithRacksIsRackAwareForOrdersOnly() {
        // docs/assignment-problem.md's input: worker-a-m0 on az1 takes the az1 shards 0 and 2 of orders first.
        ShardDescriber streams = ShardDescriber.of(
                Assignments.streamWithRacks("orders", "az1", "az2", "az1,az2", "", "az3", "az3"),
                StreamDescription.of("payments", 3));
        AssignmentProblem p = problem(streams,
                member("worker-a-m0", "orders", "payments").withRack("az1")
                        .withOwned(Map.of("orders", ShardSet.of(0, 1)), 4),
                member("worker-b-m0", "orders"));
        assertAssigns(p, Assignments.builder()
                .member("worker-a-m0", "orders", 0, 2, 5).member("worker-a-m0", "payments", 0, 1, 2)
                .member("worker-b-m0", "orders", 1, 3, 4)
                .build());
    }

    @Test
    void noRackAwarenessWhenEveryShardIsOnTheSameRacks() {
        ShardDescriber streams = ShardDescriber.of(
                Assignments.streamWithRacks("t0", "rack-a,rack-b", "rack-a,rack-b", "rack-a,rack-b", "rack-a,rack-b"));
        AssignmentProblem p = problem(streams,
                member("A", "t0").withRack("rack-b"),
                member("B", "t0").withRack("rack-a"));
        assertAssigns(p, Assignments.builder().member("A", "t0", 0, 1).member("B", "t0", 2, 3).build());
    }

    @Test
    void noRackAwarenessWhenMemberRacksAndShardRacksAreDisjoint() {
        ShardDescriber streams = ShardDescriber.of(
                Assignments.streamWithRacks("t0", "rack-b", "rack-a", "rack-b", "rack-a"));
        AssignmentProblem p = problem(streams,
                member("A", "t0").withRack("zone-1"),
                member("B", "t0").withRack("zone-2"));
        assertAssigns(p, Assignments.builder().member("A", "t0", 0, 1).member("B", "t0", 2, 3).build());
    }

    @Test
    void everyMemberAppearsAndUnknownOrEmptyStreamsAreIgnored() {
        AssignmentProblem p = problem(ShardDescriber.of(StreamDescription.of("t0", 2), StreamDescription.of("empty", 0)),
                member("A", "t0", "ghost", "empty"),
                member("B"));
        assertAssigns(p, Assignments.builder().member("A", "t0", 0, 1).member("B").build());
        assertThat(assignor.assign(GroupSpec.of(), p.shards()).members()).isEmpty();
    }

    private void assertAssigns(AssignmentProblem p, GroupAssignment expected) {
        assertThat(assignor.assign(p.group(), p.shards())).isEqualTo(expected);
        assertThat(KafkaOracle.run(new org.apache.kafka.clients.consumer.RangeAssignor(), p))
                .as("Kafka's RangeAssignor agrees").isEqualTo(expected);
    }

    static AssignmentProblem problem(ShardDescriber streams, MemberSubscription... members) {
        return AssignmentProblem.of(GroupSpec.of(members), streams);
    }

    static MemberSubscription member(String id, String... streams) {
        return MemberSubscription.of(id, List.of(streams));
    }
}
