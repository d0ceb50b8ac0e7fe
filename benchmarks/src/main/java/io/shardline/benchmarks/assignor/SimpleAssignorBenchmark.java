package io.shardline.benchmarks.assignor;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import io.shardline.coordinator.assignor.testing.KafkaOracle;
import io.shardline.coordinator.assignor.testing.KafkaOracle.OwnedEncoding;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.common.Cluster;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Our {@code range} and {@code round-robin} against Kafka's {@code RangeAssignor} and {@code RoundRobinAssignor}
 * at 1,000,000 shards (500 streams x 2,000 shards, 2,000 members reading all), same input, same run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx4g", "-Dlogback.configurationFile=logback-assignor-bench.xml"})
@Warmup(iterations = 1)
@Measurement(iterations = 2)
public class SimpleAssignorBenchmark {

    @Param({"range", "round-robin"})
    public String assignor;

    private AssignmentProblem problem;
    private Assignor ours;
    private Cluster cluster;
    private GroupSubscription kafkaInput;

    @Setup(Level.Trial)
    public void setUp() {
        problem = AssignorScenario.UNIFORM_1M_FRESH.problem();
        ours = AssignorRegistry.builtIn(assignor);
        cluster = KafkaOracle.cluster(problem.shards());
        kafkaInput = KafkaOracle.groupSubscription(problem.group(), OwnedEncoding.FIELDS);
    }

    @Benchmark
    public GroupAssignment ours() {
        return ours.assign(problem.group(), problem.shards());
    }

    @Benchmark
    public ConsumerPartitionAssignor.GroupAssignment kafka() {
        ConsumerPartitionAssignor kafka = assignor.equals("range") ? new RangeAssignor() : new RoundRobinAssignor();
        return kafka.assign(cluster, kafkaInput);
    }
}
