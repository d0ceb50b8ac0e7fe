package io.shardline.benchmarks.runtime;

import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Consumption CPU per record (docs/benchmarks.md, "Cost curve"): one worker from the built distribution with one
 * member over 16 shards ({@code logging-sink}, logging nothing), records produced at a steady rate; the worker's CPU
 * time ({@code /proc/<pid>/stat}) and Redis's ({@code INFO cpu}) over a measured window, divided by the records
 * produced in it. First a warm-up at the highest rate (the JIT compiles the consumption path), then an idle window
 * (the worker's fixed cost), then each rate after a warm-up at that rate; the
 * marginal column takes the idle cost off. The producer adds each 10 ms tick's records in one script call, so it
 * costs the bench one round trip per tick. CPU time, not wall time: the figure holds on a busy machine. At the end of
 * each window it checks that the group kept up (entries not yet delivered, summed over the shards).
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar io.shardline.benchmarks.runtime.RecordCostBench
 * dist/target/shardline-0.1.0-SNAPSHOT [WINDOW_SECONDS=20] [RATES=100,1000,10000]}; {@code JAVA_OPTS} is passed to
 * the worker. Every process it starts is stopped by its pid.
 */
public final class RecordCostBench {

    private static final int SHARDS = 16;
    private static final long WARM_UP_MS = 10_000;
    private static final long TICK_MS = 10;
    private static final String STREAM = "cost";
    private static final String ADD = "for i = 1, tonumber(ARGV[1]) do "
            + "redis.call('XADD', '{" + STREAM + ":' .. ((tonumber(ARGV[2]) + i) % " + SHARDS + ") .. '}', '*', 'k', i) "
            + "end return 0";
    private static final String UNDELIVERED = "local n = 0 for i = 0, " + (SHARDS - 1) + " do "
            + "local groups = redis.call('XINFO', 'GROUPS', '{" + STREAM + ":' .. i .. '}') "
            + "for _, g in ipairs(groups) do for j = 1, #g, 2 do "
            + "if g[j] == 'lag' and g[j + 1] then n = n + g[j + 1] end "
            + "if g[j] == 'pending' then n = n + g[j + 1] end end end end return n";

    private RecordCostBench() {
    }

    public static void main(String[] args) throws Exception {
        Path dist = DistWorkers.distOrExit(args, 1,
                "RecordCostBench DIST_DIR [WINDOW_SECONDS=20] [RATES=100,1000,10000]");
        long windowMs = TimeUnit.SECONDS.toMillis(args.length > 1 ? Long.parseLong(args[1]) : 20);
        int[] rates = Arrays.stream((args.length > 2 ? args[2] : "100,1000,10000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        Path work = DistWorkers.workWithListener("record-cost", "c", "handler=logging-sink",
                "streams=" + STREAM + ":" + SHARDS, "group=" + STREAM, "concurrency=1", "start.from=latest",
                "handler.config.log.every=100000000");
        System.out.printf("load average before: %s; window %d s; JAVA_OPTS=%s%n", DistWorkers.loadAverage(),
                windowMs / 1000, System.getenv("JAVA_OPTS"));
        try (RedisServer redis = RedisServer.start(false);
             DistWorkers workers = new DistWorkers(dist, work, 1);
             RespProbe probe = redis.probe()) {
            Process worker = workers.start(0, redis.uri());
            workers.awaitLine(0, "(owner epoch ", 120_000);
            // The JIT's warm-up at the highest rate first, so that no window pays for compiling the consumption path.
            window(probe, worker, Arrays.stream(rates).max().orElse(0), 2 * WARM_UP_MS);
            TimeUnit.MILLISECONDS.sleep(WARM_UP_MS); // the backlog drains, not a condition
            double[] idle = window(probe, worker, 0, windowMs);
            System.out.println("| records/s | worker CPU (% of a core) | Redis CPU (% of a core) | worker CPU per record "
                    + "(µs) | marginal over idle per record: worker / Redis (µs) | undelivered at the end | load |");
            System.out.println("| ---: | ---: | ---: | ---: | ---: | ---: | --- |");
            System.out.printf(Locale.ROOT, "| 0 (idle) | %.2f | %.2f | — | — | — | %s |%n", 100 * idle[0],
                    100 * idle[1], DistWorkers.loadAverage());
            for (int rate : rates) {
                window(probe, worker, rate, WARM_UP_MS);
                double[] cost = window(probe, worker, rate, windowMs);
                double records = cost[2];
                double seconds = windowMs / 1000.0;
                System.out.printf(Locale.ROOT, "| %,d | %.2f | %.2f | %.1f | %.1f / %.1f | %d | %s |%n", rate,
                        100 * cost[0], 100 * cost[1], cost[0] * seconds / records * 1e6,
                        (cost[0] - idle[0]) * seconds / records * 1e6, (cost[1] - idle[1]) * seconds / records * 1e6,
                        (Long) probe.call("EVAL", UNDELIVERED, "0"), DistWorkers.loadAverage());
            }
        }
    }

    /**
     * Produces {@code rate} records a second for {@code ms}; returns the worker's and Redis's CPU over it as
     * fractions of a core, and the records produced.
     */
    private static double[] window(RespProbe probe, Process worker, int rate, long ms)
            throws IOException, InterruptedException {
        long ticks = DistWorkers.cpuTicks(worker.pid());
        double redis = DistWorkers.redisCpuSeconds(probe);
        long start = System.nanoTime();
        long produced = 0;
        for (long tick = 1; System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(ms); tick++) {
            long due = rate * tick * TICK_MS / 1000 - produced;
            if (due > 0) {
                probe.call("EVAL", ADD, "0", Long.toString(due), Long.toString(produced));
                produced += due;
            }
            long next = start + TimeUnit.MILLISECONDS.toNanos(tick * TICK_MS);
            long waitNanos = next - System.nanoTime();
            if (waitNanos > 0) {
                TimeUnit.NANOSECONDS.sleep(waitNanos); // the producer's pace
            }
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        double workerCpu = (DistWorkers.cpuTicks(worker.pid()) - ticks) / (double) DistWorkers.CLOCK_TICKS_PER_SECOND;
        return new double[] {workerCpu / elapsed, (DistWorkers.redisCpuSeconds(probe) - redis) / elapsed, produced};
    }

}
