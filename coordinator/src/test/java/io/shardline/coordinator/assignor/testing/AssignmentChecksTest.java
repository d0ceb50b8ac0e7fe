package io.shardline.coordinator.assignor.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.junit.jupiter.api.Test;

/** The checks catch what they promise to catch, and the Kafka oracle round-trips a known example. */
class AssignmentChecksTest {

    private static final ShardDescriber STREAMS =
            ShardDescriber.of(StreamDescription.of("t0", 3), StreamDescription.of("t1", 2));
    private static final AssignmentProblem PROBLEM = AssignmentProblem.of(GroupSpec.of(
            MemberSubscription.of("A", List.of("t0", "t1")),
            MemberSubscription.of("B", List.of("t0"))), STREAMS);

    @Test
    void acceptsAValidAssignment() {
        GroupAssignment ok = Assignments.builder().member("A", "t0", 0, 1).member("A", "t1", 0, 1)
                .member("B", "t0", 2).build();
        AssignmentChecks.assertValid(PROBLEM, ok);
        assertThat(AssignmentChecks.spread(ok)).isEqualTo(3);
        assertThat(AssignmentChecks.balanceScore(ok)).isEqualTo(3);
    }

    @Test
    void rejectsUnassignedDoubleAssignedUnsubscribedAndMissing() {
        GroupAssignment bad = Assignments.builder().member("A", "t0", 0, 1).member("A", "t1", 0, 7)
                .member("C", "t0", 1).build();
        List<String> v = AssignmentChecks.violations(PROBLEM.group(), STREAMS, bad, true);
        assertThat(String.join("\n", v))
                .contains("member B is missing")
                .contains("unknown member C")
                .contains("t1[7] but t1 has 2 shards")
                .contains("t0[2] has subscribers but was not assigned")
                .contains("t1[1] has subscribers but was not assigned");
        GroupAssignment unsubscribed = Assignments.builder().member("A", "t0", 0, 1, 2).member("B", "t1", 0, 1)
                .build();
        assertThatThrownBy(() -> AssignmentChecks.assertValid(PROBLEM, unsubscribed))
                .hasMessageContaining("B got t1[0, 1] but does not subscribe to t1");
        GroupAssignment twice = Assignments.builder().member("A", "t0", 0, 1, 2).member("A", "t1", 0, 1)
                .member("B", "t0", 2).build();
        assertThatThrownBy(() -> AssignmentChecks.assertValid(PROBLEM, twice))
                .hasMessageContaining("t0[2] given to both A and B");
        GroupAssignment partial = Assignments.builder().member("A", "t0", 0).member("B").build();
        AssignmentChecks.assertValidAllowingUnassigned(PROBLEM, partial);
    }

    @Test
    void countsMovesAgainstResolvedPreviousOwners() {
        GroupSpec group = GroupSpec.of(
                MemberSubscription.of("A", List.of("t0")).withOwned(Map.of("t0", ShardSet.of(0, 1)), 5),
                MemberSubscription.of("B", List.of("t0")).withOwned(Map.of("t0", ShardSet.of(1, 2)), 5),
                MemberSubscription.of("C", List.of("t0")).withOwned(Map.of("t0", ShardSet.of(2)), 4));
        // t0[0] -> A; t0[1] claimed by A and B at generation 5: void; t0[2] -> B (5 beats 4).
        GroupAssignment a = Assignments.builder().member("A", "t0", 1).member("B", "t0", 0).member("C", "t0", 2)
                .build();
        assertThat(AssignmentChecks.moves(group, a)).isEqualTo(2);
        assertThat(AssignmentChecks.maxSpreadAmongIdenticalSubscriptions(group, a)).isZero();
    }

    @Test
    void kafkaOracleRunsKafkasAssignorsOnOurProblems() {
        // The example of Kafka's RangeAssignor and RoundRobinAssignor Javadoc.
        AssignmentProblem p = AssignmentProblem.of(GroupSpec.of(
                MemberSubscription.of("C1", List.of("t0", "t1")),
                MemberSubscription.of("C0", List.of("t0", "t1"))),
                ShardDescriber.of(StreamDescription.of("t0", 3), StreamDescription.of("t1", 3)));
        assertThat(KafkaOracle.run(new RangeAssignor(), p)).isEqualTo(Assignments.builder()
                .member("C0", "t0", 0, 1).member("C0", "t1", 0, 1)
                .member("C1", "t0", 2).member("C1", "t1", 2).build());
        assertThat(KafkaOracle.run(new RoundRobinAssignor(), p)).isEqualTo(Assignments.builder()
                .member("C0", "t0", 0, 2).member("C0", "t1", 1)
                .member("C1", "t0", 1).member("C1", "t1", 0, 2).build());
        assertThat(KafkaOracle.run(new RangeAssignor(), AssignmentProblem.of(GroupSpec.of(), STREAMS)).members())
                .isEmpty();
    }

    @Test
    void kafkaOracleCarriesRacksInstanceIdsAndOwnership() {
        GroupSpec group = GroupSpec.of(
                MemberSubscription.of("A", List.of("t0")).withRack("r1").withInstanceId("i0")
                        .withOwned(Map.of("t0", ShardSet.of(1)), 3));
        var cluster = KafkaOracle.cluster(ShardDescriber.of(Assignments.streamWithRacks("t0", "r0", "r1,r2", "")));
        assertThat(cluster.partitionsForTopic("t0")).hasSize(3);
        assertThat(cluster.partition(new org.apache.kafka.common.TopicPartition("t0", 1)).replicas())
                .extracting(org.apache.kafka.common.Node::rack).containsExactly("r1", "r2");
        assertThat(cluster.partition(new org.apache.kafka.common.TopicPartition("t0", 2)).replicas()).isEmpty();
        var sub = KafkaOracle.groupSubscription(group, KafkaOracle.OwnedEncoding.FIELDS).groupSubscription().get("A");
        assertThat(sub.rackId()).contains("r1");
        assertThat(sub.groupInstanceId()).contains("i0");
        assertThat(sub.generationId()).contains(3);
        assertThat(sub.ownedPartitions()).containsExactly(new org.apache.kafka.common.TopicPartition("t0", 1));
        var sticky = KafkaOracle.groupSubscription(group, KafkaOracle.OwnedEncoding.STICKY_USER_DATA)
                .groupSubscription().get("A");
        assertThat(sticky.userData()).isNotNull();
        assertThat(sticky.generationId()).isEmpty();
    }
}
