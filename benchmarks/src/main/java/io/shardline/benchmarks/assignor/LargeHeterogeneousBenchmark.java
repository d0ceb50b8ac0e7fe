package io.shardline.benchmarks.assignor;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import java.util.concurrent.TimeUnit;
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
 * Ours alone on {@code ClientSideAssignorBenchmark}'s largest heterogeneous size (10,000 members, 500,000
 * shards, each member reading two neighbouring topics of 100), full and incremental. Kafka's general sticky
 * path does not finish the full problem in 2 minutes (and takes 8-32 s on the incremental one), so it does not
 * share this JMH run; {@link AssignorComparison} runs it in a child JVM with a time limit and reports
 * {@code > N s}. Runs with {@code -Xmx2g}: the heap bound of docs/benchmarks.md, "Assignors".
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "-Dlogback.configurationFile=logback-assignor-bench.xml"})
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class LargeHeterogeneousBenchmark {

    @Param({"CSAB_10K_HETEROGENEOUS_FULL", "CSAB_10K_HETEROGENEOUS_INCREMENTAL"})
    public String scenario;

    @Param({"sticky", "cooperative-sticky"})
    public String assignor;

    private AssignmentProblem problem;
    private Assignor ours;

    @Setup(Level.Trial)
    public void setUp() {
        problem = AssignorScenario.valueOf(scenario).problem();
        ours = AssignorRegistry.builtIn(assignor);
    }

    @Benchmark
    public GroupAssignment ours() {
        return ours.assign(problem.group(), problem.shards());
    }
}
