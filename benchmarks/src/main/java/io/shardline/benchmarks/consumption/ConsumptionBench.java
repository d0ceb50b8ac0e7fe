package io.shardline.benchmarks.consumption;

import static io.shardline.benchmarks.consumption.BenchRedis.await;
import static io.shardline.benchmarks.consumption.BenchRedis.shards;
import static io.shardline.benchmarks.consumption.BenchRedis.waitUntil;

import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;
import io.shardline.runtime.shard.ConsumerSettings;
import io.shardline.runtime.shard.HotPath;
import io.shardline.runtime.shard.MemberShards;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The consumption benchmarks of docs/benchmarks.md ("## Consumption"), each with its baseline in the same
 * run against the same redis-server (started by the harness):
 * <ol>
 *   <li>{@code throughput}: a no-op handler, one member, 16 shards, vs a bare XREADGROUP+XACK loop per shard
 *       written with the same Vert.x Redis client (same batch size, same number of concurrent loops);</li>
 *   <li>{@code latency}: end-to-end latency (XADD issued to handler called) at a steady 10,000 records/s
 *       over 16 shards;</li>
 *   <li>{@code fairness}: 64 shards over 4 local workers at a steady rate; p99 latency of the other shards
 *       without, then with, a 100,000-record backlog on shard 0.</li>
 * </ol>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar io.shardline.benchmarks.consumption.ConsumptionBench [all|throughput|latency|fairness]}.
 */
public final class ConsumptionBench {

    /**
     * Rounds of the throughput benchmark not counted: they run every side so the JIT has compiled all of them. One
     * round was not enough: the JIT compiler threads still used 0.4-1.2 s of CPU during round 2 (measured with
     * {@code side}), on the same two cores, and more of it during the side with more code (the member).
     */
    static final int WARM_UP_ROUNDS = 2;

    /** Thread CPU by kind right when the last measured side finished (before its member closed). */
    private static java.util.Map<String, Long> lastThreads = java.util.Map.of();

    private ConsumptionBench() {
    }

    public static void main(String[] args) throws Exception {
        String which = args.length > 0 ? args[0] : "all";
        if (which.equals("all") || which.equals("throughput")) {
            throughput();
        }
        if (which.equals("all") || which.equals("latency")) {
            latency();
        }
        if (which.equals("all") || which.equals("fairness")) {
            fairness();
        }
        if (which.equals("side")) {
            side(args.length > 1 ? args[1] : "transaction", args.length > 2 ? Integer.parseInt(args[2]) : 10);
        }
    }

    /**
     * One side of the throughput benchmark alone, {@code rounds} times (for profiling it: the other sides' samples
     * stay out of the recording). Not a comparison; the ratio is only measured by {@code throughput}.
     */
    static void side(String side, int rounds) {
        int shardCount = 16;
        int perShard = 25_000;
        int batch = 100;
        for (int round = 1; round <= rounds; round++) {
            try (BenchRedis b = new BenchRedis()) {
                List<ShardId> shards = shards("tp", shardCount);
                shards.forEach(s -> b.fill(s, perShard));
                b.group(shards, "g", side.equals("bare") ? null : "m", 1);
                long total = (long) shardCount * perShard;
                long cpu0 = b.redisCpuMs();
                long jvm0 = jvmCpuMs();
                java.util.Map<String, Long> threads0 = threadCpuByKind();
                jdk.jfr.Recording recording = startRecording();
                double rate = switch (side) {
                    case "bare" -> bareLoop(b, shards, batch, total, "g");
                    case "transaction" -> shardline(b, shards, batch, total, "g", HotPath.TRANSACTION);
                    case "script" -> shardline(b, shards, batch, total, "g", HotPath.SCRIPT);
                    default -> throw new IllegalArgumentException("side: bare, transaction or script, got " + side);
                };
                stopRecording(recording, side + "-" + round);
                System.out.printf(Locale.ROOT, "side %s round %d (load %s): %.0f rec/s (redis CPU %d ms, JVM CPU %d ms, "
                                + "threads %s)%n",
                        side, round, loadAverage(), rate, b.redisCpuMs() - cpu0, jvmCpuMs() - jvm0, minus(lastThreads, threads0));
            }
        }
    }

    // ---- throughput ----

    static void throughput() {
        int shardCount = 16;
        int perShard = 25_000;
        int batch = 100;
        List<Double> txRatios = new ArrayList<>();
        List<Double> scriptRatios = new ArrayList<>();
        for (int round = 1; round <= WARM_UP_ROUNDS + 5; round++) {
            try (BenchRedis b = new BenchRedis()) {
                List<ShardId> shards = shards("tp", shardCount);
                shards.forEach(s -> b.fill(s, perShard));
                b.group(shards, "bare", null, 0);
                b.group(shards, "tx", "m", 1);
                b.group(shards, "script", "m", 1);
                long total = (long) shardCount * perShard;
                // Rotate the order so no side always runs first (on a colder JIT) or last.
                double[] rate = new double[3];
                long[] cpu = new long[3];
                for (int k = 0; k < 3; k++) {
                    int side = (k + round) % 3;
                    long cpu0 = b.redisCpuMs();
                    rate[side] = switch (side) {
                        case 0 -> bareLoop(b, shards, batch, total, "bare");
                        case 1 -> shardline(b, shards, batch, total, "tx", HotPath.TRANSACTION);
                        default -> shardline(b, shards, batch, total, "script", HotPath.SCRIPT);
                    };
                    cpu[side] = b.redisCpuMs() - cpu0;
                }
                System.out.printf(Locale.ROOT, "throughput round %d (load %s): bare XREADGROUP+XACK %.0f rec/s (redis CPU %d ms), "
                                + "shardline transaction %.0f rec/s (redis CPU %d ms), shardline script %.0f rec/s (redis CPU %d ms), "
                                + "ratio transaction %.2f, script %.2f%n",
                        round, loadAverage(), rate[0], cpu[0], rate[1], cpu[1], rate[2], cpu[2], rate[1] / rate[0], rate[2] / rate[0]);
                if (round > WARM_UP_ROUNDS) {
                    txRatios.add(rate[1] / rate[0]);
                    scriptRatios.add(rate[2] / rate[0]);
                }
            }
        }
        System.out.printf(Locale.ROOT, "throughput ratio shardline/bare over rounds %d-%d: transaction (default) %s; script (before) %s%n",
                WARM_UP_ROUNDS + 1, WARM_UP_ROUNDS + 5, medianMinMax(txRatios), medianMinMax(scriptRatios));
    }

    /** CPU time (ms) of this JVM so far (all threads, GC included). */
    static long jvmCpuMs() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1_000_000;
    }

    /**
     * CPU time (ms) of this JVM's live threads so far, by kind (from /proc, Linux): event loops, handler workers, JIT
     * compilers, GC, other.
     */
    static java.util.Map<String, Long> threadCpuByKind() {
        java.util.Map<String, Long> ms = new java.util.TreeMap<>();
        try (java.util.stream.Stream<java.nio.file.Path> tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/task"))) {
            for (java.nio.file.Path t : (Iterable<java.nio.file.Path>) tasks::iterator) {
                try {
                    String comm = java.nio.file.Files.readString(t.resolve("comm")).trim();
                    String stat = java.nio.file.Files.readString(t.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    String kind = comm.startsWith("vert.x-eventloo") ? "event loops"
                            : comm.startsWith("shardline-handl") ? "handler threads"
                            : comm.startsWith("C1 ") || comm.startsWith("C2 ") ? "JIT"
                            : comm.startsWith("G1") || comm.startsWith("GC ") ? "GC" : comm.replaceAll("[-0-9]+$", "");
                    ms.merge(kind, (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10, Long::sum);
                } catch (java.io.IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (java.io.IOException e) {
            return ms;
        }
        return ms;
    }

    private static java.util.Map<String, Long> minus(java.util.Map<String, Long> a, java.util.Map<String, Long> b) {
        java.util.Map<String, Long> d = new java.util.TreeMap<>();
        a.forEach((k, v) -> d.put(k, v - b.getOrDefault(k, 0L)));
        return d;
    }

    /**
     * With {@code -Dperf.jfr=DIR}: a JFR recording (profile settings, execution samples every ms) of the measured part
     * only, dumped to {@code DIR/<side>-<round>.jfr}; without it, none.
     */
    private static jdk.jfr.Recording startRecording() {
        if (System.getProperty("perf.jfr") == null) {
            return null;
        }
        try {
            jdk.jfr.Recording r = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
            r.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(1));
            r.start();
            return r;
        } catch (java.io.IOException | java.text.ParseException e) {
            throw new IllegalStateException("cannot start a JFR recording", e);
        }
    }

    private static void stopRecording(jdk.jfr.Recording r, String name) {
        if (r == null) {
            return;
        }
        r.stop();
        try {
            r.dump(java.nio.file.Path.of(System.getProperty("perf.jfr"), name + ".jfr"));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot write the JFR recording", e);
        } finally {
            r.close();
        }
    }

    private static String medianMinMax(List<Double> ratios) {
        List<Double> sorted = new ArrayList<>(ratios);
        java.util.Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return String.format(Locale.ROOT, "median %.2f (min %.2f, max %.2f)", median, sorted.get(0), sorted.get(n - 1));
    }

    /** The 1-minute load average, from /proc/loadavg (Linux), or "?". */
    static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException | RuntimeException e) {
            return "?";
        }
    }

    private static double bareLoop(BenchRedis b, List<ShardId> shards, int batch, long total, String group) {
        AtomicLong consumed = new AtomicLong();
        long start = System.nanoTime();
        List<Future<Void>> loops = new ArrayList<>();
        for (ShardId s : shards) {
            Promise<Void> done = Promise.promise();
            b.vertx.runOnContext(v -> bareStep(b, s, group, batch, consumed, done));
            loops.add(done.future());
        }
        await(Future.all(loops));
        double seconds = (System.nanoTime() - start) / 1e9;
        lastThreads = threadCpuByKind();
        if (consumed.get() != total) {
            throw new IllegalStateException("bare loop consumed " + consumed.get() + " of " + total);
        }
        return total / seconds;
    }

    private static void bareStep(BenchRedis b, ShardId s, String group, int batch, AtomicLong consumed, Promise<Void> done) {
        b.redis.send(Request.cmd(Command.XREADGROUP).arg("GROUP").arg(group).arg("bare").arg("COUNT").arg(batch)
                .arg("STREAMS").arg(s.key()).arg(">")).onComplete(ar -> {
                    if (ar.failed()) {
                        done.fail(ar.cause());
                        return;
                    }
                    Response r = ar.result();
                    if (r == null) {
                        done.complete();
                        return;
                    }
                    Response entries = r.isMap() ? r.get(s.key()) : r.get(0).get(1);
                    Request ack = Request.cmd(Command.XACK).arg(s.key()).arg(group);
                    for (Response e : entries) {
                        ack.arg(e.get(0).toString());
                    }
                    int n = entries.size();
                    b.redis.send(ack).onComplete(a -> {
                        if (a.failed()) {
                            done.fail(a.cause());
                            return;
                        }
                        consumed.addAndGet(n);
                        bareStep(b, s, group, batch, consumed, done);
                    });
                });
    }

    private static double shardline(BenchRedis b, List<ShardId> shards, int batch, long total, String group, HotPath path) {
        AtomicLong handled = new AtomicLong();
        SyncHandler noop = new SyncHandler() {
            @Override
            public void handle(StreamRecord record, ShardContext shard) {
                handled.incrementAndGet();
            }
        };
        ConsumerSettings settings = ConsumerSettings.defaults(group, "tp.dlq").withConcurrency(shards.size(), batch).withHotPath(path);
        MemberShards m = b.member("m", noop, settings, "tp");
        long start = System.nanoTime();
        shards.forEach(s -> await(m.acquire(s, 1)));
        waitUntil(600_000, () -> handled.get() >= total);
        double seconds = (System.nanoTime() - start) / 1e9;
        lastThreads = threadCpuByKind();
        await(m.close());
        return total / seconds;
    }

    // ---- latency ----

    static void latency() {
        try (BenchRedis b = new BenchRedis()) {
            List<ShardId> shards = shards("lat", 16);
            b.group(shards, "g", "m", 1);
            LatencyHandler handler = new LatencyHandler(400_000, s -> true);
            MemberShards m = b.member("m", handler, ConsumerSettings.defaults("g", "lat.dlq").withConcurrency(4, 100), "lat");
            shards.forEach(s -> await(m.acquire(s, 1)));
            SteadyProducer producer = new SteadyProducer(b, shards, 10_000);
            producer.run(5_000); // warm-up
            handler.reset();
            producer.run(20_000);
            waitUntil(30_000, () -> handler.count() >= producer.sentSinceReset());
            double p99 = handler.percentileMs(0.99);
            System.out.printf(Locale.ROOT, "latency at 10000 rec/s, 16 shards, 4 workers (load %s): %s (n=%d); target p99 <= 5 ms: %s%n",
                    loadAverage(), handler.summary(), handler.count(), p99 <= 5.0 ? "met" : "NOT met");
            await(m.close());
        }
    }

    // ---- fairness ----

    static void fairness() {
        double baselineP99 = Double.NaN;
        for (boolean backlog : new boolean[] {false, true}) {
            try (BenchRedis b = new BenchRedis()) {
                List<ShardId> shards = shards("fair", 64);
                ShardId hot = shards.get(0);
                if (backlog) {
                    b.fill(hot, 100_000);
                }
                b.group(shards, "g", "m", 1);
                LatencyHandler handler = new LatencyHandler(400_000, s -> !s.equals(hot));
                AtomicInteger hotHandled = new AtomicInteger();
                handler.onOther = hotHandled::incrementAndGet;
                MemberShards m = b.member("m", handler, ConsumerSettings.defaults("g", "fair.dlq").withConcurrency(4, 100), "fair");
                List<ShardId> cold = shards.subList(1, 64);
                shards.forEach(s -> await(m.acquire(s, 1)));
                await(m.pause(hot)); // the backlog waits until the measurement starts
                SteadyProducer producer = new SteadyProducer(b, cold, 3_150); // 50 rec/s per cold shard
                producer.run(3_000); // warm-up
                handler.reset();
                await(m.resume(hot));
                long start = System.nanoTime();
                producer.runWhile(() -> backlog ? hotHandled.get() < 100_000 : System.nanoTime() - start < 5_000_000_000L);
                double drainSeconds = (System.nanoTime() - start) / 1e9;
                waitUntil(60_000, () -> handler.count() >= producer.sentSinceReset());
                System.out.printf(Locale.ROOT, "fairness, 64 shards over 4 workers, %s (load %s): other shards %s (n=%d) over %.1f s%n",
                        backlog ? "shard 0 with a 100000-record backlog" : "no backlog", loadAverage(), handler.summary(),
                        handler.count(), drainSeconds);
                double p99 = handler.percentileMs(0.99);
                if (!backlog) {
                    baselineP99 = p99;
                } else {
                    double ratio = p99 / baselineP99;
                    System.out.printf(Locale.ROOT, "fairness: other shards' p99 with the backlog / without = %.2f / %.2f ms = %.2fx; "
                            + "target <= 2x: %s%n", p99, baselineP99, ratio, ratio <= 2.0 ? "met" : "NOT met");
                }
                await(m.close());
            }
        }
    }

    /** Records the latency (ns) of records carrying {@code t} = System.nanoTime() at XADD. */
    static final class LatencyHandler implements SyncHandler {
        private final long[] samples;
        private final java.util.function.Predicate<ShardId> measured;
        private final AtomicInteger n = new AtomicInteger();
        private final AtomicInteger total = new AtomicInteger();
        Runnable onOther = () -> { };

        LatencyHandler(int capacity, java.util.function.Predicate<ShardId> measured) {
            this.samples = new long[capacity];
            this.measured = measured;
        }

        @Override
        public void handle(StreamRecord record, ShardContext shard) {
            long now = System.nanoTime();
            if (!measured.test(record.shard())) {
                onOther.run();
                return;
            }
            total.incrementAndGet();
            long t = Long.parseLong(record.field("t"));
            if (t == 0) {
                return;
            }
            int i = n.getAndIncrement();
            if (i < samples.length) {
                samples[i] = now - t;
            }
        }

        void reset() {
            n.set(0);
            total.set(0);
        }

        int count() {
            return total.get();
        }

        String summary() {
            int k = Math.min(n.get(), samples.length);
            long[] s = Arrays.copyOf(samples, k);
            Arrays.sort(s);
            return String.format(Locale.ROOT, "p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms",
                    pct(s, 0.50), pct(s, 0.99), pct(s, 0.999), k == 0 ? 0.0 : s[k - 1] / 1e6);
        }

        /** The {@code q} quantile of the samples so far, in ms. */
        double percentileMs(double q) {
            long[] s = Arrays.copyOf(samples, Math.min(n.get(), samples.length));
            Arrays.sort(s);
            return pct(s, q);
        }

        private static double pct(long[] sorted, double q) {
            return sorted.length == 0 ? 0.0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)] / 1e6;
        }
    }
}
