package io.shardline.benchmarks.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        Path dist = DistWorkers.distOrExit(args, 2, "JoinTimeBench DIST_DIR REDIS_URL [WORKERS=3] [ROUNDS=3]");
        String redisUrl = args[1];
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        Path work = DistWorkers.workWithListener("join-bench", "orders", "handler=logging-sink",
                "streams=join-bench:12", "group=join-bench", "concurrency=1", "start.from=latest");
        System.out.println("load average before: " + DistWorkers.loadAverage() + "; JAVA_OPTS="
                + System.getenv("JAVA_OPTS") + "; output in " + work);
        List<Long> baselines = new ArrayList<>();
        List<Long> joins = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            long baseline = DistWorkers.bareJvmMs(dist, work);
            baselines.add(baseline);
            System.out.printf("round %d: bare JVM (start-worker --version) %d ms%n", round, baseline);
            joins.addAll(cluster(dist, work, redisUrl, workers, round));
        }
        System.out.printf("bare JVM median %d ms; spawn-to-joined median %d ms, max %d ms (n=%d); load average %s%n",
                DistWorkers.median(baselines), DistWorkers.median(joins),
                joins.stream().mapToLong(Long::longValue).max().orElse(0), joins.size(), DistWorkers.loadAverage());
    }

    private static List<Long> cluster(Path dist, Path work, String redisUrl, int workers, int round)
            throws IOException, InterruptedException {
        List<Long> joins = new ArrayList<>();
        Path roundWork = Files.createDirectories(work.resolve("round" + round));
        Files.createDirectories(roundWork.resolve("listeners"));
        Files.copy(work.resolve("listeners/orders.properties"), roundWork.resolve("listeners/orders.properties"));
        try (DistWorkers started = new DistWorkers(dist, roundWork, workers)) {
            for (int i = 0; i < workers; i++) {
                long spawned = System.nanoTime();
                started.start(i, redisUrl);
                String joined = started.awaitLine(i, "joined cluster", JOIN_TIMEOUT_MS);
                long wallMs = (System.nanoTime() - spawned) / 1_000_000;
                joins.add(wallMs);
                Matcher m = JVM_MS.matcher(joined);
                System.out.printf("round %d: w%d joined after %d ms (spawn to line; JVM uptime %s ms); %s%n", round, i,
                        wallMs, m.find() ? m.group(1) : "?", DistWorkers.firstLine(started.output(i), "Start phases")
                                .map(l -> l.substring(l.indexOf("Start phases"))).orElse("no phase line"));
            }
        }
        return joins;
    }
}
