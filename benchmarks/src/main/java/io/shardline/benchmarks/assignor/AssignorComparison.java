package io.shardline.benchmarks.assignor;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.assignor.testing.AssignmentChecks;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Ours against Kafka's ({@code kafka-clients}) sticky and cooperative-sticky assignors on every
 * {@link AssignorScenario}: times, moves, balance, heap, and the load average, one Markdown table row per
 * scenario and assignor.
 *
 * <p>What is measured. <b>Ours</b>, in this JVM (run it with {@code -Xmx2g}: the heap bound of docs/benchmarks.md, "Assignors"): the
 * problem is built outside the timing; then warm-up runs of {@code assign(group, shards)} (at least 2, and
 * more, up to 100, until they add up to 1 s, so that small problems are JIT-compiled) and 5 measured runs,
 * each after {@code System.gc()} and timed with {@code System.nanoTime}; the row gives the median and the
 * min-max of the 5. Heap: the sum of the peak usage of the heap memory pools over all these runs (an upper
 * bound of the peak, problem included), and the GC time within the 5 timed runs (summed).
 * <b>Kafka's</b>, in a child JVM ({@link KafkaChild}, {@code -Xmx3g}, property {@code kafkaXmx} to change it),
 * one child per row, started after ours has finished so that the two never share the machine: a cold run, and
 * if it takes under 5 s, warm-ups as for ours (the cold run is the first) and the median of 3 runs; the child is killed when one run exceeds the
 * time limit, and the row says {@code > N s}. Ratio: Kafka's median over ours. Both answers are checked
 * ({@link AssignmentChecks}: complete for sticky, withheld shards allowed for cooperative-sticky). Moves: shards
 * given to a member other than their previous owner. Balance: max - min shard count, and Kafka's balance
 * score. Load: the 1-minute load average ({@code /proc/loadavg}) before ours' runs and after Kafka's.
 *
 * <pre>java -Xmx2g -cp benchmarks/target/benchmarks.jar io.shardline.benchmarks.assignor.AssignorComparison
 *     [timeLimitSeconds] [scenario...] [--ours-only]</pre>
 */
public final class AssignorComparison {

    private static final int WARM_UPS = 2;
    private static final int MEASURED = 5;
    /** Warm-ups go on (up to {@link #WARM_UP_MAX_RUNS}) until they have taken this long, for the JIT's sake. */
    static final double WARM_UP_MIN_MS = 1_000;
    static final int WARM_UP_MAX_RUNS = 100;

    private AssignorComparison() {
    }

    /**
     * Runs the comparison; arguments: optional time limit per Kafka run in seconds (default 120), scenario
     * names (default all), {@code --ours-only}. {@code --kafka-child <scenario> <assignor>} is the child mode.
     */
    public static void main(String[] args) throws Exception {
        // Kafka's assignors log whole assignments at DEBUG; keep logging out of the timing
        System.setProperty("logback.configurationFile", "logback-assignor-bench.xml");
        if (args.length == 3 && args[0].equals("--kafka-child")) {
            KafkaChild.run(args[1], args[2]);
            System.exit(0);
        }
        long limitSeconds = 120;
        boolean oursOnly = false;
        List<AssignorScenario> scenarios = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals("--ours-only")) {
                oursOnly = true;
            } else if (arg.matches("\\d+")) {
                limitSeconds = Long.parseLong(arg);
            } else {
                scenarios.add(scenario(arg));
            }
        }
        if (scenarios.isEmpty()) {
            scenarios.addAll(List.of(AssignorScenario.values()));
        }
        System.out.printf(Locale.ROOT, "ours: -Xmx %d MiB, %d processors; Kafka's child: -Xmx%s; limit %d s per"
                        + " Kafka run%n%n", Runtime.getRuntime().maxMemory() >> 20,
                Runtime.getRuntime().availableProcessors(), KafkaOutcome.CHILD_XMX, limitSeconds);
        System.out.println("| scenario | assignor | ours ms, median (min-max) of 5 | Kafka's ms | ratio"
                + " | moves ours / Kafka's | balance (max-min, score) ours / Kafka's | ours heap peak MiB, GC ms"
                + " | load 1m |");
        System.out.println("| --- | --- | ---: | ---: | ---: | --- | --- | ---: | --- |");
        for (AssignorScenario scenario : scenarios) {
            AssignmentProblem problem = scenario.problem();
            for (String assignor : List.of("sticky", "cooperative-sticky")) {
                row(scenario, problem, assignor, limitSeconds, oursOnly);
            }
        }
        System.exit(0);
    }

    private static void row(AssignorScenario scenario, AssignmentProblem problem, String assignor, long limitSeconds,
                            boolean oursOnly) throws Exception {
        String loadBefore = RunTimes.loadAverage();
        Assignor ours = AssignorRegistry.builtIn(assignor);
        List<MemoryPoolMXBean> heapPools = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool);
                pool.resetPeakUsage();
            }
        }
        GroupAssignment answer = null;
        int warmUps = 0;
        for (double warmedMs = 0; warmUps < WARM_UPS || warmedMs < WARM_UP_MIN_MS && warmUps < WARM_UP_MAX_RUNS;
                warmUps++) {
            System.gc();
            long start = System.nanoTime();
            answer = ours.assign(problem.group(), problem.shards());
            warmedMs += (System.nanoTime() - start) / 1e6;
        }
        double[] measured = new double[MEASURED];
        long gcMs = 0;
        for (int n = 0; n < MEASURED; n++) {
            System.gc();
            long gcBefore = gcMillis();
            long start = System.nanoTime();
            answer = ours.assign(problem.group(), problem.shards());
            measured[n] = (System.nanoTime() - start) / 1e6;
            gcMs += gcMillis() - gcBefore;
        }
        long peakHeap = heapPools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        RunTimes oursTimes = RunTimes.of(measured);
        boolean sticky = KafkaChild.isSticky(assignor);
        List<String> violations = AssignmentChecks.violations(problem.group(), problem.shards(), answer, sticky);
        for (String v : violations.subList(0, Math.min(10, violations.size()))) {
            System.err.println("our " + assignor + " on " + scenario + ": " + v);
        }
        String oursBalance = (violations.isEmpty() ? "" : "INVALID ") + AssignmentChecks.spread(answer) + ", "
                + AssignmentChecks.balanceScore(answer);
        long oursMoves = AssignmentChecks.moves(problem.group(), answer);

        String kafkaMs = "-";
        String ratio = "-";
        String kafkaMoves = "-";
        String kafkaBalance = "-";
        String loadAfter = "-";
        if (!oursOnly) {
            KafkaOutcome k = KafkaOutcome.measure(scenario, assignor, limitSeconds);
            loadAfter = RunTimes.loadAverage();
            if (k.times().isPresent()) {
                RunTimes t = k.times().get();
                kafkaMs = t.format();
                ratio = String.format(Locale.ROOT, "%.1fx", t.medianMs() / oursTimes.medianMs());
                kafkaMoves = String.valueOf(k.moves());
                kafkaBalance = (k.valid() ? "" : "INVALID ") + k.spread() + ", " + k.score();
            } else {
                kafkaMs = k.status();
                if (k.status().startsWith(">")) {
                    ratio = String.format(Locale.ROOT, "> %.0fx", limitSeconds * 1000 / oursTimes.medianMs());
                }
            }
        }
        System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %d / %s | %s / %s | %d, %d | %s / %s |%n",
                scenario, assignor, oursTimes.format(), kafkaMs, ratio, oursMoves, kafkaMoves, oursBalance,
                kafkaBalance, peakHeap >> 20, gcMs, loadBefore, loadAfter);
        System.out.flush();
    }

    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }

    private static AssignorScenario scenario(String name) {
        try {
            return AssignorScenario.valueOf(name);
        } catch (IllegalArgumentException e) {
            System.err.println("unknown scenario '" + name + "': expected one of "
                    + List.of(AssignorScenario.values()));
            System.exit(2);
            throw e;
        }
    }
}
