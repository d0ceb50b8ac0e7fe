package io.shardline.benchmarks.assignor;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import io.shardline.coordinator.assignor.testing.KafkaOracle;
import io.shardline.coordinator.assignor.testing.KafkaOracle.OwnedEncoding;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
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
 * Our {@code sticky} / {@code cooperative-sticky} against Kafka's {@code StickyAssignor} /
 * {@code CooperativeStickyAssignor} on the same input, in the same run, for Kafka's large sticky test
 * scenarios and the sizes of its {@code ClientSideAssignorBenchmark} ({@link AssignorScenario}). Kafka's
 * input (cluster metadata and subscriptions with owned partitions) is built once per trial, outside the
 * measurement, as ours is; Kafka's assignors keep state, so each call gets a fresh instance. The 10,000-member
 * heterogeneous scenarios are in {@link LargeHeterogeneousBenchmark}: Kafka's does not finish there.
 * Moves and balance: {@link AssignorComparison}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx4g", "-Dlogback.configurationFile=logback-assignor-bench.xml"})
@Warmup(iterations = 1)
@Measurement(iterations = 2)
public class StickyAssignorBenchmark {

    @Param({"UNIFORM_1M_FRESH", "UNIFORM_1M_REBALANCE", "UNIFORM_RACKS_100K_FRESH", "UNIFORM_RACKS_100K_REBALANCE",
        "NON_EQUAL_1M_FRESH", "NON_EQUAL_1M_REBALANCE", "NON_EQUAL_NOT_TIMEOUT_FRESH",
        "NON_EQUAL_NOT_TIMEOUT_REBALANCE", "RANDOM_SUBSCRIPTIONS_50_LEAVE", "CSAB_1K_R10_HOMOGENEOUS_FULL",
        "CSAB_1K_R10_HOMOGENEOUS_INCREMENTAL", "CSAB_1K_HOMOGENEOUS_FULL",
        "CSAB_1K_HOMOGENEOUS_INCREMENTAL", "CSAB_1K_HETEROGENEOUS_FULL", "CSAB_1K_HETEROGENEOUS_INCREMENTAL",
        "CSAB_10K_HOMOGENEOUS_FULL", "CSAB_10K_HOMOGENEOUS_INCREMENTAL"})
    public String scenario;

    @Param({"sticky", "cooperative-sticky"})
    public String assignor;

    private AssignmentProblem problem;
    private Assignor ours;
    private Cluster cluster;
    private GroupSubscription kafkaInput;

    @Setup(Level.Trial)
    public void setUp() {
        problem = AssignorScenario.valueOf(scenario).problem();
        ours = AssignorRegistry.builtIn(assignor);
        cluster = KafkaOracle.cluster(problem.shards());
        kafkaInput = KafkaOracle.groupSubscription(problem.group(),
                assignor.equals("sticky") ? OwnedEncoding.STICKY_USER_DATA : OwnedEncoding.FIELDS);
    }

    /** Kafka's eager sticky assignor reads its user data buffers; rewind them before every call. */
    @Setup(Level.Iteration)
    public void rewindUserData() {
        for (Subscription s : kafkaInput.groupSubscription().values()) {
            ByteBuffer userData = s.userData();
            if (userData != null) {
                userData.rewind();
            }
        }
    }

    @Benchmark
    public GroupAssignment ours() {
        return ours.assign(problem.group(), problem.shards());
    }

    @Benchmark
    public ConsumerPartitionAssignor.GroupAssignment kafka() {
        ConsumerPartitionAssignor kafka = assignor.equals("sticky") ? new StickyAssignor() : new CooperativeStickyAssignor();
        return kafka.assign(cluster, kafkaInput);
    }
}
