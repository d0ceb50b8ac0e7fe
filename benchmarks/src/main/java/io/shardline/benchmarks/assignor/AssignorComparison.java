package io.shardline.benchmarks.assignor;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.coordinator.assignor.CooperativeStickyAssignor;
import io.shardline.coordinator.assignor.StickyAssignor;
import io.shardline.coordinator.assignor.testing.AssignmentChecks;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import io.shardline.coordinator.assignor.testing.KafkaOracle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;

/**
 * Prints, per scenario, the outcome of ours and Kafka's sticky and cooperative-sticky assignors on the same
 * input: one timed run each (Kafka's with a time limit, reported as {@code > N s}), moves and balance. The
 * timing of record is the JMH run ({@link StickyAssignorBenchmark}); this adds what JMH cannot: moves,
 * balance, and Kafka's runs that do not finish.
 *
 * <pre>java -Xmx2g -cp benchmarks/target/benchmarks.jar io.shardline.benchmarks.assignor.AssignorComparison
 *     [timeoutSeconds] [scenario...] [--ours-only]</pre>
 */
public final class AssignorComparison {

    private AssignorComparison() {
    }

    /** Runs the comparison; arguments: optional timeout in seconds, scenario names, {@code --ours-only}. */
    public static void main(String[] args) throws Exception {
        // Kafka's assignors log whole assignments at DEBUG; keep logging out of the timing
        System.setProperty("logback.configurationFile", "logback-assignor-bench.xml");
        long timeoutSeconds = 300;
        boolean oursOnly = false;
        List<AssignorScenario> scenarios = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals("--ours-only")) {
                oursOnly = true;
            } else if (arg.matches("\\d+")) {
                timeoutSeconds = Long.parseLong(arg);
            } else {
                scenarios.add(AssignorScenario.valueOf(arg));
            }
        }
        if (scenarios.isEmpty()) {
            scenarios.addAll(List.of(AssignorScenario.values()));
        }
        System.out.println("| scenario | assignor | ours ms | Kafka's ms | ratio | moves ours / Kafka | balance"
                + " (max-min, score) ours / Kafka |");
        System.out.println("| --- | --- | ---: | ---: | ---: | --- | --- |");
        ExecutorService kafkaThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kafka-assignor");
            t.setDaemon(true);
            return t;
        });
        for (AssignorScenario scenario : scenarios) {
            AssignmentProblem p = scenario.problem();
            for (boolean cooperative : new boolean[] {false, true}) {
                Assignor ours = cooperative ? new CooperativeStickyAssignor() : new StickyAssignor();
                long start = System.nanoTime();
                GroupAssignment a = ours.assign(p.group(), p.shards());
                double oursMs = (System.nanoTime() - start) / 1e6;
                AssignmentChecks.assertValidAllowingUnassigned(p, a);
                String kafkaMs = "-";
                String ratio = "-";
                String kafkaMoves = "-";
                String kafkaBalance = "-";
                if (!oursOnly) {
                    ConsumerPartitionAssignor kafka = cooperative
                            ? new org.apache.kafka.clients.consumer.CooperativeStickyAssignor()
                            : new org.apache.kafka.clients.consumer.StickyAssignor();
                    long kStart = System.nanoTime();
                    Future<GroupAssignment> f = kafkaThread.submit(() -> KafkaOracle.run(kafka, p));
                    try {
                        GroupAssignment k = f.get(timeoutSeconds, TimeUnit.SECONDS);
                        double ms = (System.nanoTime() - kStart) / 1e6;
                        kafkaMs = String.format(Locale.ROOT, "%.0f", ms);
                        ratio = String.format(Locale.ROOT, "%.1fx", ms / oursMs);
                        kafkaMoves = String.valueOf(AssignmentChecks.moves(p.group(), k));
                        kafkaBalance = balance(k);
                    } catch (TimeoutException e) {
                        kafkaMs = "> " + timeoutSeconds + " s";
                        // Kafka's assignor cannot be interrupted: leave it behind on a fresh thread
                        f.cancel(true);
                        kafkaThread = Executors.newSingleThreadExecutor(r -> {
                            Thread t = new Thread(r, "kafka-assignor");
                            t.setDaemon(true);
                            return t;
                        });
                    }
                }
                System.out.printf(Locale.ROOT, "| %s | %s | %.0f | %s | %s | %d / %s | %s / %s |%n",
                        scenario, cooperative ? "cooperative-sticky" : "sticky", oursMs, kafkaMs, ratio,
                        AssignmentChecks.moves(p.group(), a), kafkaMoves, balance(a), kafkaBalance);
            }
        }
        System.exit(0);
    }

    private static String balance(GroupAssignment a) {
        return AssignmentChecks.spread(a) + ", " + AssignmentChecks.balanceScore(a);
    }
}
