package io.shardline.benchmarks.runtime;

import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What idle shards cost (docs/benchmarks.md, "Cost curve"): worker CPU and Redis CPU per second while workers own
 * shards that receive nothing. For each scenario it starts its own {@code redis-server}, starts the workers from
 * the built distribution with one listener ({@code logging-sink}, {@code start.from=latest}), waits until every
 * shard has an owner in Redis and a warm-up has passed, then reads the CPU time of the worker processes
 * ({@code /proc/<pid>/stat}) and of Redis ({@code INFO cpu}) over a measured window. CPU time, not wall time, is
 * measured, so the figure holds on a machine that is busy with other work (the load average is printed beside it).
 *
 * <p>Scenarios: one worker with one member owning 16, 256 and 4,096 shards; four workers with 16 members each
 * (64 members) on 4,096 shards. Run after {@code mvn -B -ntp -DskipTests package}:
 * {@code java -cp benchmarks/target/benchmarks.jar io.shardline.benchmarks.runtime.IdleCostBench
 * dist/target/shardline-0.1.0-SNAPSHOT [WINDOW_SECONDS=30]}; {@code -Dbench.idle.scenarios=1x1x16,4x16x4096} picks
 * scenarios (workers x members per worker x shards), {@code -Dbench.idle.threads=true} prints where each
 * worker's CPU went, by thread, {@code -Dbench.idle.warmup.s=N} sets the warm-up (default 15). Every process it
 * starts is stopped by its pid.
 * Target: an idle shard costs at most 1 % of a core per 1,000 shards, on the worker and on Redis: the marginal
 * column, the cost above the first row's (a worker's fixed cost: cluster heartbeats, ticks, its REST server), per
 * 1,000 shards more (for several workers, above that many times the first row's worker cost).
 */
public final class IdleCostBench {

    private static final long OWN_TIMEOUT_MS = 300_000;
    /** The warm-up after every shard is owned ({@code -Dbench.idle.warmup.s}, default 15 s). */
    private static final long WARM_UP_MS = TimeUnit.SECONDS.toMillis(Long.getLong("bench.idle.warmup.s", 15));

    /** One measured configuration: workers x members per worker over shards. */
    private record Scenario(int workers, int membersPerWorker, int shards) {
        String name() {
            return workers + " worker(s) x " + membersPerWorker + " member(s), " + shards + " shards";
        }
    }

    /** CPU used in the window, as a fraction of one core, and the workers' resident memory at its end. */
    private record Cost(double workerCores, double redisCores, long workerRssKb, long workerHeapKb) {
    }

    private IdleCostBench() {
    }

    public static void main(String[] args) throws Exception {
        Path dist = DistWorkers.distOrExit(args, 1, "IdleCostBench DIST_DIR [WINDOW_SECONDS=30]");
        long windowMs = TimeUnit.SECONDS.toMillis(args.length > 1 ? Long.parseLong(args[1]) : 30);
        List<Scenario> scenarios = java.util.Arrays.stream(System.getProperty("bench.idle.scenarios",
                "1x1x16,1x1x256,1x1x4096,4x16x4096").split(",")).map(t -> t.split("x"))
                .map(f -> new Scenario(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]))).toList();
        System.out.printf("load average before: %s; window %d s%n", DistWorkers.loadAverage(), windowMs / 1000);
        System.out.println("| scenario | worker CPU (% of a core) | Redis CPU (% of a core) "
                + "| marginal per 1,000 shards over the first row: worker / Redis | worker RSS (MiB) "
                + "| worker heap after a full GC (MiB) | load average |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- |");
        Cost base = null;
        Scenario baseScenario = null;
        for (Scenario scenario : scenarios) {
            Cost cost = measure(dist, scenario, windowMs);
            String marginal = "—";
            if (base == null) {
                base = cost;
                baseScenario = scenario;
            } else {
                double perThousand = 1000.0 / (scenario.shards() - baseScenario.shards());
                marginal = String.format(Locale.ROOT, "%.3f / %.3f",
                        100 * (cost.workerCores() - base.workerCores() * scenario.workers()) * perThousand,
                        100 * (cost.redisCores() - base.redisCores()) * perThousand);
            }
            System.out.printf(Locale.ROOT, "| %s | %.2f | %.2f | %s | %d | %.1f | %s |%n", scenario.name(),
                    100 * cost.workerCores(), 100 * cost.redisCores(), marginal, cost.workerRssKb() / 1024,
                    cost.workerHeapKb() / 1024.0, DistWorkers.loadAverage());
        }
    }

    private static Cost measure(Path dist, Scenario scenario, long windowMs) throws Exception {
        String stream = "idle" + scenario.shards() + "x" + scenario.workers();
        Path work = DistWorkers.workWithListener("idle-bench", stream, "handler=logging-sink",
                "streams=" + stream + ":" + scenario.shards(), "group=" + stream,
                "concurrency=" + scenario.membersPerWorker(), "start.from=latest");
        try (RedisServer redis = RedisServer.start(false);
             DistWorkers workers = new DistWorkers(dist, work, scenario.workers())) {
            for (int i = 0; i < scenario.workers(); i++) {
                workers.start(i, redis.uri());
            }
            // A long read timeout: on a loaded machine Redis may answer the owner count only seconds later.
            try (RespProbe probe = RespProbe.connect("127.0.0.1", redis.port(), 60_000)) {
                awaitOwned(probe, stream, scenario.shards(), workers.processes(), work);
                TimeUnit.MILLISECONDS.sleep(WARM_UP_MS); // a measured warm-up, not a condition
                long workerTicks = workerTicks(workers.processes());
                List<Map<String, Long>> threads = new java.util.ArrayList<>();
                for (Process p : workers.processes()) {
                    threads.add(DistWorkers.cpuMsByThread(p.pid()));
                }
                double redisSeconds = DistWorkers.redisCpuSeconds(probe);
                long start = System.nanoTime();
                TimeUnit.MILLISECONDS.sleep(windowMs); // the measured window
                double elapsed = (System.nanoTime() - start) / 1e9;
                double workerCpu = (workerTicks(workers.processes()) - workerTicks)
                        / (double) DistWorkers.CLOCK_TICKS_PER_SECOND;
                double redisCpu = DistWorkers.redisCpuSeconds(probe) - redisSeconds;
                if (Boolean.getBoolean("bench.idle.threads")) {
                    for (int i = 0; i < threads.size(); i++) {
                        Map<String, Long> before = threads.get(i);
                        Map<String, Long> spent = new java.util.TreeMap<>();
                        DistWorkers.cpuMsByThread(workers.processes().get(i).pid()).forEach((name, ms) -> {
                            if (ms > before.getOrDefault(name, 0L)) {
                                spent.put(name, ms - before.getOrDefault(name, 0L));
                            }
                        });
                        System.out.println(scenario.name() + ", worker w" + i + ", CPU ms by thread in the window: "
                                + spent);
                    }
                }
                long heapKb = 0;
                for (Process p : workers.processes()) {
                    heapKb += DistWorkers.heapAfterGcKb(p.pid());
                }
                return new Cost(workerCpu / elapsed, redisCpu / elapsed, workerRssKb(workers.processes()), heapKb);
            }
        }
    }

    /** Waits until every shard's owner hash names an owner (the coordinator handed every shard to a member). */
    private static void awaitOwned(RespProbe probe, String stream, int shards, List<Process> workers, Path work)
            throws IOException, InterruptedException {
        String script = "local n = 0 for i = 0, tonumber(ARGV[2]) - 1 do "
                + "if redis.call('HGET', '{' .. ARGV[1] .. ':' .. i .. '}:owner:' .. ARGV[1], 'owner') then n = n + 1 end "
                + "end return n";
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OWN_TIMEOUT_MS);
        long owned = 0;
        while (System.nanoTime() < deadline) {
            owned = (Long) probe.call("EVAL", script, "0", stream, Integer.toString(shards));
            if (owned == shards) {
                return;
            }
            for (Process p : workers) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("a worker exited (" + p.exitValue() + "); see " + work);
                }
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
        throw new IllegalStateException(owned + " of " + shards + " shards owned after " + OWN_TIMEOUT_MS
                + " ms; see " + work);
    }

    private static long workerTicks(List<Process> workers) throws IOException {
        long ticks = 0;
        for (Process p : workers) {
            ticks += DistWorkers.cpuTicks(p.pid());
        }
        return ticks;
    }

    private static long workerRssKb(List<Process> workers) throws IOException {
        long kb = 0;
        for (Process p : workers) {
            kb += DistWorkers.rssKb(p.pid());
        }
        return kb;
    }


}
