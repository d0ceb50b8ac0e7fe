package io.shardline.benchmarks.runtime;

import io.shardline.testkit.net.FreePorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Worker join time, measured from the built distribution: per round, a bare JVM start of the same class path
 * ({@code bin/start-worker --version}, the baseline) and then {@code workers} workers started one after the
 * other with {@code bin/start-worker} on loopback (the first forms the cluster, the others join it). For each
 * it reports the wall time from spawn to the "joined" line, the JVM uptime the line itself states, and the
 * start phases the worker logs ({@code Start phases (ms): ...}). {@code JAVA_OPTS} is passed through to the
 * workers, so a variant (for example a class-data-sharing archive) is measured with the same command.
 *
 * <p>Run (a redis-server must be listening):
 * {@code java -cp benchmarks/target/benchmarks.jar io.shardline.benchmarks.runtime.JoinTimeBench
 * dist/target/shardline-0.1.0-SNAPSHOT redis://127.0.0.1:6379 3 3} (distribution, Redis URL, workers, rounds).
 * Every process it starts is stopped by its pid (SIGTERM, then SIGKILL after 30 s).
 */
public final class JoinTimeBench {

    private static final Pattern JVM_MS = Pattern.compile("\\((\\d+) ms after JVM start\\)");
    private static final long JOIN_TIMEOUT_MS = 120_000;

    private JoinTimeBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: JoinTimeBench DIST_DIR REDIS_URL [WORKERS=3] [ROUNDS=3]");
            System.exit(2);
        }
        Path dist = Path.of(args[0]).toAbsolutePath();
        String redisUrl = args[1];
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        if (!Files.isExecutable(dist.resolve("bin/start-worker"))) {
            System.err.println("no bin/start-worker in " + dist + "; build the distribution first (mvn package)");
            System.exit(2);
        }
        Path work = Files.createTempDirectory("join-bench");
        Path listeners = Files.createDirectories(work.resolve("listeners"));
        Files.writeString(listeners.resolve("orders.properties"), String.join("\n", "handler=logging-sink",
                "streams=join-bench:12", "group=join-bench", "concurrency=1", "start.from=latest", ""));
        System.out.println("load average before: " + loadAverage() + "; JAVA_OPTS=" + System.getenv("JAVA_OPTS")
                + "; output in " + work);
        List<Long> baselines = new ArrayList<>();
        List<Long> joins = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            long baseline = bareJvm(dist, work);
            baselines.add(baseline);
            System.out.printf("round %d: bare JVM (start-worker --version) %d ms%n", round, baseline);
            joins.addAll(cluster(dist, work, listeners, redisUrl, workers, round));
        }
        System.out.printf("bare JVM median %d ms; spawn-to-joined median %d ms, max %d ms (n=%d); load average %s%n",
                median(baselines), median(joins), joins.stream().mapToLong(Long::longValue).max().orElse(0),
                joins.size(), loadAverage());
    }

    private static long bareJvm(Path dist, Path work) throws IOException, InterruptedException {
        long spawned = System.nanoTime();
        Process p = new ProcessBuilder(dist.resolve("bin/start-worker").toString(), "--version")
                .redirectErrorStream(true).redirectOutput(work.resolve("version.out").toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("start-worker --version did not exit within 60 s");
        }
        return (System.nanoTime() - spawned) / 1_000_000;
    }

    private static List<Long> cluster(Path dist, Path work, Path listeners, String redisUrl, int workers, int round)
            throws IOException, InterruptedException {
        String cluster = "join-" + UUID.randomUUID().toString().substring(0, 8);
        List<Integer> ports = FreePorts.take(2 * workers);
        StringBuilder seeds = new StringBuilder();
        for (int i = 0; i < workers; i++) {
            seeds.append(i == 0 ? "" : ",").append("127.0.0.1:").append(ports.get(i));
        }
        List<Process> started = new ArrayList<>();
        List<Long> joins = new ArrayList<>();
        try {
            for (int i = 0; i < workers; i++) {
                String id = "r" + round + "w" + i;
                Path config = work.resolve(id + ".properties");
                Files.writeString(config, String.join("\n", "cluster.name=" + cluster, "worker.id=" + id,
                        "cluster.port=" + ports.get(i), "cluster.members=" + seeds, "redis.url=" + redisUrl,
                        "rest.port=" + ports.get(workers + i), "plugin.path=" + dist.resolve("plugins"),
                        "listeners.dir=" + listeners, "log.dir=" + work.resolve("logs"), ""), StandardCharsets.UTF_8);
                Path out = work.resolve(id + ".out");
                long spawned = System.nanoTime();
                Process p = new ProcessBuilder(dist.resolve("bin/start-worker").toString(), config.toString())
                        .directory(work.toFile()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
                started.add(p);
                String joined = awaitLine(p, out, "joined cluster", spawned);
                long wallMs = (System.nanoTime() - spawned) / 1_000_000;
                joins.add(wallMs);
                Matcher m = JVM_MS.matcher(joined);
                System.out.printf("round %d: %s joined after %d ms (spawn to line; JVM uptime %s ms); %s%n", round, id,
                        wallMs, m.find() ? m.group(1) : "?", phases(out).orElse("no phase line"));
            }
        } finally {
            for (Process p : started) {
                p.destroy();
            }
            for (Process p : started) {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
        return joins;
    }

    private static String awaitLine(Process p, Path out, String text, long spawnedNanos)
            throws IOException, InterruptedException {
        while (System.nanoTime() - spawnedNanos < TimeUnit.MILLISECONDS.toNanos(JOIN_TIMEOUT_MS)) {
            Optional<String> line = Files.readAllLines(out, StandardCharsets.ISO_8859_1).stream()
                    .filter(l -> l.contains(text)).findFirst();
            if (line.isPresent()) {
                return line.get();
            }
            if (!p.isAlive()) {
                throw new IllegalStateException("worker exited (" + p.exitValue() + ") before joining; see " + out);
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        throw new IllegalStateException("no '" + text + "' within " + JOIN_TIMEOUT_MS + " ms; see " + out);
    }

    private static Optional<String> phases(Path out) throws IOException {
        return Files.readAllLines(out, StandardCharsets.ISO_8859_1).stream().filter(l -> l.contains("Start phases"))
                .map(l -> l.substring(l.indexOf("Start phases"))).findFirst();
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return String.valueOf(java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }
}
