package io.shardline.benchmarks.assignor;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.coordinator.assignor.testing.AssignmentChecks;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import io.shardline.coordinator.assignor.testing.KafkaOracle;
import io.shardline.coordinator.assignor.testing.KafkaOracle.OwnedEncoding;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.Cluster;

/**
 * The child-JVM side of {@link AssignorComparison}: measures Kafka's {@code StickyAssignor} or
 * {@code CooperativeStickyAssignor} on one {@link AssignorScenario} and prints the outcome on standard output,
 * one {@value #PREFIX} line per step, so that the parent can kill this JVM when a run exceeds its time limit
 * (Kafka's assignors cannot be interrupted).
 *
 * <p>What is measured: the problem, Kafka's cluster metadata and Kafka's group subscription are built outside
 * the timing (a fresh subscription before every run, since the eager assignor consumes its user-data buffers;
 * a fresh assignor instance every run, since Kafka's sticky assignors keep state; {@code System.gc()} before
 * every run). A run is one {@code assign(cluster, subscription)} call, timed with {@code System.nanoTime}.
 * The first run is cold; when it takes less than {@value #REPEAT_BELOW_MS} ms it is the first warm-up (at
 * least 2 warm-ups, more, up to 100, until they add up to 1 s, as for ours) and the result is the median (and
 * min-max) of 3 further runs, otherwise it is that single cold run. Moves and balance are those of the last run's answer, which must pass {@link AssignmentChecks}
 * (complete for sticky, shards may be withheld for cooperative-sticky).
 *
 * <p>Lines: {@code READY <scenario> <assignor> build_ms=..}, then {@code RUN <n> ms=..} per run, then {@code RESULT median_ms=..
 * min_ms=.. max_ms=.. runs=.. moves=.. spread=.. score=.. valid=yes|no}, each after {@value #PREFIX}.
 */
final class KafkaChild {

    /** Prefix of every protocol line (other output, such as Kafka's warnings, is ignored). */
    static final String PREFIX = "kafka-child ";

    /** A cold run faster than this is repeated (warm-ups plus a median of 3). */
    static final long REPEAT_BELOW_MS = 5_000;

    private static final int WARM_UPS = 2;
    private static final int MEASURED = 3;

    private final AssignmentProblem problem;
    private final boolean sticky;
    private final Cluster cluster;
    private final OwnedEncoding encoding;
    private ConsumerPartitionAssignor.GroupAssignment last;

    private KafkaChild(AssignmentProblem problem, boolean sticky) {
        this.problem = problem;
        this.sticky = sticky;
        this.cluster = KafkaOracle.cluster(problem.shards());
        this.encoding = sticky ? OwnedEncoding.STICKY_USER_DATA : OwnedEncoding.FIELDS;
    }

    /** Runs in the child JVM: {@code scenario} is an {@link AssignorScenario} name, {@code assignor} ours. */
    static void run(String scenario, String assignor) {
        long buildStart = System.nanoTime();
        KafkaChild child = new KafkaChild(AssignorScenario.valueOf(scenario).problem(), isSticky(assignor));
        line("READY %s %s build_ms=%.0f", scenario, assignor, (System.nanoTime() - buildStart) / 1e6);

        List<Double> measured = new ArrayList<>();
        double cold = child.runOnce(1);
        if (cold >= REPEAT_BELOW_MS) {
            measured.add(cold);
        } else {
            int n = 1;
            double warmedMs = cold;
            while (n < WARM_UPS
                    || warmedMs < AssignorComparison.WARM_UP_MIN_MS && n < AssignorComparison.WARM_UP_MAX_RUNS) {
                warmedMs += child.runOnce(++n);
            }
            for (int i = 0; i < MEASURED; i++) {
                measured.add(child.runOnce(++n));
            }
        }
        RunTimes times = RunTimes.of(measured.stream().mapToDouble(Double::doubleValue).toArray());
        AssignmentProblem problem = child.problem;
        GroupAssignment answer = KafkaOracle.fromKafka(child.last, problem.group());
        List<String> violations = AssignmentChecks.violations(problem.group(), problem.shards(), answer,
                child.sticky);
        for (String v : violations.subList(0, Math.min(10, violations.size()))) {
            System.err.println("Kafka's " + assignor + " on " + scenario + ": " + v);
        }
        line("RESULT median_ms=%.1f min_ms=%.1f max_ms=%.1f runs=%d moves=%d spread=%d score=%d valid=%s",
                times.medianMs(), times.minMs(), times.maxMs(), times.runs(),
                AssignmentChecks.moves(problem.group(), answer), AssignmentChecks.spread(answer),
                AssignmentChecks.balanceScore(answer), violations.isEmpty() ? "yes" : "no");
    }

    /** One timed run (run number {@code n}), with a fresh input and assignor built outside the timing. */
    private double runOnce(int n) {
        GroupSubscription input = KafkaOracle.groupSubscription(problem.group(), encoding);
        ConsumerPartitionAssignor kafka = sticky ? new StickyAssignor() : new CooperativeStickyAssignor();
        System.gc();
        long start = System.nanoTime();
        last = kafka.assign(cluster, input);
        double ms = (System.nanoTime() - start) / 1e6;
        line("RUN %d ms=%.1f", n, ms);
        return ms;
    }

    /** Whether {@code assignor} (ours: {@code sticky} or {@code cooperative-sticky}) is the eager one. */
    static boolean isSticky(String assignor) {
        switch (assignor) {
            case "sticky":
                return true;
            case "cooperative-sticky":
                return false;
            default:
                throw new IllegalArgumentException("assignor '" + assignor
                        + "' is not compared with Kafka's: expected sticky or cooperative-sticky");
        }
    }

    private static void line(String format, Object... args) {
        System.out.println(PREFIX + String.format(Locale.ROOT, format, args));
        System.out.flush();
    }
}
