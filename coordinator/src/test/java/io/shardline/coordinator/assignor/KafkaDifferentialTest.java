package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.coordinator.assignor.testing.AssignmentChecks;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import io.shardline.coordinator.assignor.testing.KafkaOracle;
import io.shardline.coordinator.assignor.testing.ProblemShape;
import io.shardline.coordinator.assignor.testing.RandomProblems;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code range} and {@code round-robin} give exactly Kafka's answer, member for member, on thousands of seeded
 * random problems per run (racks, instance ids, co-partitioned streams, empty streams, unknown streams,
 * previous ownership, which these assignors ignore). The base seed is printed; replay a run with
 * {@code -Dshardline.seed=N}.
 */
class KafkaDifferentialTest {

    private static final int SMALL_PROBLEMS = 4_000;
    private static final int MEDIUM_PROBLEMS = 600;

    private static long baseSeed;

    @BeforeAll
    static void seed() {
        baseSeed = RandomProblems.baseSeed();
        System.out.println("KafkaDifferentialTest base seed: " + baseSeed + " (replay with -Dshardline.seed="
                + baseSeed + ")");
    }

    @Test
    void rangeEqualsKafkasRangeAssignor() {
        compare(new RangeAssignor(), org.apache.kafka.clients.consumer.RangeAssignor::new, 0);
    }

    @Test
    void roundRobinEqualsKafkasRoundRobinAssignor() {
        compare(new RoundRobinAssignor(), org.apache.kafka.clients.consumer.RoundRobinAssignor::new, 1_000_003);
    }

    @Test
    void rangeEqualsKafkaWhenEveryProblemHasRacks() {
        ProblemShape racks = ProblemShape.small().withRackChance(1.0);
        for (int i = 0; i < SMALL_PROBLEMS; i++) {
            check(new RangeAssignor(), new org.apache.kafka.clients.consumer.RangeAssignor(),
                    RandomProblems.generate(baseSeed + 2_000_003 + i, racks));
        }
    }

    private static void compare(Assignor ours, Supplier<ConsumerPartitionAssignor> kafka, long offset) {
        ProblemShape small = ProblemShape.small().withUnknownStreamChance(0.05);
        for (int i = 0; i < SMALL_PROBLEMS; i++) {
            check(ours, kafka.get(), RandomProblems.generate(baseSeed + offset + i, small));
        }
        ProblemShape medium = ProblemShape.medium().withUnknownStreamChance(0.05);
        for (int i = 0; i < MEDIUM_PROBLEMS; i++) {
            check(ours, kafka.get(), RandomProblems.generate(baseSeed + offset + SMALL_PROBLEMS + i, medium));
        }
    }

    private static void check(Assignor ours, ConsumerPartitionAssignor kafka, AssignmentProblem problem) {
        GroupAssignment expected = KafkaOracle.run(kafka, problem);
        GroupAssignment actual = ours.assign(problem.group(), problem.shards());
        AssignmentChecks.assertSameAssignment(problem, expected, actual);
        AssignmentChecks.assertValid(problem, actual);
    }
}
