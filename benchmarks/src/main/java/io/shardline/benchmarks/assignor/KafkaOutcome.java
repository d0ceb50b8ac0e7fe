package io.shardline.benchmarks.assignor;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * What Kafka's assignor did on one scenario, measured in a child JVM ({@link KafkaChild}) that the parent
 * kills ({@link Process#destroyForcibly()}, by its handle) when a single run, or building the input, exceeds
 * the time limit. The child's protocol lines are echoed on standard error (every run's time). Immutable.
 *
 * @param times the measured times; empty when the child was killed or failed
 * @param moves shards given to a member other than their previous owner
 * @param spread max minus min shard count over members
 * @param score Kafka's balance score
 * @param valid whether Kafka's answer passed {@code AssignmentChecks}
 * @param status {@code ok}, {@code > N s} (killed on the limit), or {@code failed (...)}
 */
record KafkaOutcome(Optional<RunTimes> times, long moves, long spread, long score, boolean valid, String status) {

    private static final String EOF = "\u0000eof";

    /** The child JVM's {@code -Xmx}: system property {@code kafkaXmx}, default {@code 3g}. */
    static final String CHILD_XMX = System.getProperty("kafkaXmx", "3g");

    /** Runs Kafka's counterpart of {@code assignor} on {@code scenario} in a child JVM. */
    static KafkaOutcome measure(AssignorScenario scenario, String assignor, long limitSeconds)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(List.of(java, "-Xmx" + CHILD_XMX,
                "-Dlogback.configurationFile=logback-assignor-bench.xml",
                "-cp", System.getProperty("java.class.path"),
                AssignorComparison.class.getName(), "--kafka-child", scenario.name(), assignor));
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process child = builder.start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> pump(child, lines), "kafka-child-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            while (true) {
                String line = lines.poll(limitSeconds, TimeUnit.SECONDS);
                if (line == null) {
                    return killed("> " + limitSeconds + " s", child);
                }
                if (line.equals(EOF)) {
                    child.waitFor();
                    return failed("failed (exit " + child.exitValue() + ")");
                }
                if (line.startsWith(KafkaChild.PREFIX + "RESULT ")) {
                    child.waitFor(limitSeconds, TimeUnit.SECONDS);
                    return parse(line.substring((KafkaChild.PREFIX + "RESULT ").length()));
                }
            }
        } finally {
            if (child.isAlive()) {
                child.destroyForcibly();
                child.waitFor();
            }
        }
    }

    private static KafkaOutcome killed(String status, Process child) throws InterruptedException {
        child.destroyForcibly();
        child.waitFor();
        return failed(status);
    }

    private static KafkaOutcome failed(String status) {
        return new KafkaOutcome(Optional.empty(), -1, -1, -1, false, status);
    }

    private static void pump(Process child, BlockingQueue<String> lines) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith(KafkaChild.PREFIX)) {
                    System.err.println(line);
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            // the child was killed: its pipe closed under us
        }
        lines.add(EOF);
    }

    private static KafkaOutcome parse(String fields) {
        Map<String, String> f = new HashMap<>();
        for (String kv : fields.trim().split("\\s+")) {
            int eq = kv.indexOf('=');
            f.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        RunTimes times = new RunTimes(Double.parseDouble(f.get("median_ms")), Double.parseDouble(f.get("min_ms")),
                Double.parseDouble(f.get("max_ms")), Integer.parseInt(f.get("runs")));
        return new KafkaOutcome(Optional.of(times), Long.parseLong(f.get("moves")), Long.parseLong(f.get("spread")),
                Long.parseLong(f.get("score")), f.get("valid").equals("yes"), "ok");
    }
}
