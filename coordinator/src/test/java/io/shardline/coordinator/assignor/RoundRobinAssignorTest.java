package io.shardline.coordinator.assignor;

import static io.shardline.coordinator.assignor.RangeAssignorTest.member;
import static io.shardline.coordinator.assignor.RangeAssignorTest.problem;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.StreamDescription;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import io.shardline.coordinator.assignor.testing.Assignments;
import io.shardline.coordinator.assignor.testing.KafkaOracle;
import org.junit.jupiter.api.Test;

/** The worked example of docs/assignors.md ("round-robin") and Kafka's Javadoc examples; each expectation is also checked against Kafka. */
class RoundRobinAssignorTest {

    private final RoundRobinAssignor assignor = new RoundRobinAssignor();

    @Test
    void seed001SkipsTheMemberThatDoesNotSubscribe() {
        AssignmentProblem p = problem(ShardDescriber.of(StreamDescription.of("t0", 3), StreamDescription.of("t1", 3)),
                member("consumer1", "t0"), member("consumer0", "t0", "t1"));
        assertAssigns(p, Assignments.builder()
                .member("consumer0", "t0", 0, 2).member("consumer0", "t1", 0, 1, 2)
                .member("consumer1", "t0", 1)
                .build());
    }

    @Test
    void kafkaJavadocExampleWithIdenticalSubscriptionsDealsAcrossStreams() {
        AssignmentProblem p = problem(ShardDescriber.of(StreamDescription.of("t0", 3), StreamDescription.of("t1", 3)),
                member("C0", "t0", "t1"), member("C1", "t0", "t1"));
        assertAssigns(p, Assignments.builder()
                .member("C0", "t0", 0, 2).member("C0", "t1", 1)
                .member("C1", "t0", 1).member("C1", "t1", 0, 2)
                .build());
    }

    @Test
    void kafkaJavadocExampleWithDifferentSubscriptions() {
        AssignmentProblem p = problem(ShardDescriber.of(StreamDescription.of("t0", 1), StreamDescription.of("t1", 2),
                        StreamDescription.of("t2", 3)),
                member("C2", "t0", "t1", "t2"), member("C0", "t0"), member("C1", "t0", "t1"));
        assertAssigns(p, Assignments.builder()
                .member("C0", "t0", 0)
                .member("C1", "t1", 0)
                .member("C2", "t1", 1).member("C2", "t2", 0, 1, 2)
                .build());
    }

    @Test
    void instanceIdsComeFirstInTheCircle() {
        AssignmentProblem p = problem(ShardDescriber.of(StreamDescription.of("t0", 4)),
                member("a", "t0"), member("z", "t0").withInstanceId("static-0"), member("b", "t0"));
        assertAssigns(p, Assignments.builder()
                .member("z", "t0", 0, 3)
                .member("a", "t0", 1)
                .member("b", "t0", 2)
                .build());
    }

    @Test
    void emptyAndUnknownStreamsDoNotMoveTheCircle() {
        AssignmentProblem p = problem(ShardDescriber.of(StreamDescription.of("a", 1), StreamDescription.of("b", 0),
                        StreamDescription.of("c", 1)),
                member("M0", "a", "b", "c", "ghost"), member("M1", "a", "b", "c"), member("M2"));
        assertAssigns(p, Assignments.builder()
                .member("M0", "a", 0)
                .member("M1", "c", 0)
                .member("M2")
                .build());
        assertThat(assignor.assign(GroupSpec.of(), p.shards()).members()).isEmpty();
    }

    private void assertAssigns(AssignmentProblem p, GroupAssignment expected) {
        assertThat(assignor.assign(p.group(), p.shards())).isEqualTo(expected);
        assertThat(KafkaOracle.run(new org.apache.kafka.clients.consumer.RoundRobinAssignor(), p))
                .as("Kafka's RoundRobinAssignor agrees").isEqualTo(expected);
    }
}
