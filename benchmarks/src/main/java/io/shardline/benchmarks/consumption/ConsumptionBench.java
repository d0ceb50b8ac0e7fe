package io.shardline.benchmarks.consumption;

import static io.shardline.benchmarks.consumption.BenchRedis.await;
import static io.shardline.benchmarks.consumption.BenchRedis.shards;
import static io.shardline.benchmarks.consumption.BenchRedis.waitUntil;

import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;
import io.shardline.runtime.shard.ConsumerSettings;
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
    }

    // ---- throughput ----

    static void throughput() {
        int shardCount = 16;
        int perShard = 25_000;
        int batch = 100;
        List<Double> ratios = new ArrayList<>();
        for (int round = 1; round <= 5; round++) {
            try (BenchRedis b = new BenchRedis()) {
                List<ShardId> shards = shards("tp", shardCount);
                shards.forEach(s -> b.fill(s, perShard));
                b.group(shards, "bare", null, 0);
                b.group(shards, "sl", "m", 1);
                long total = (long) shardCount * perShard;
                // Alternate the order so neither side always runs on a colder JIT.
                double bare;
                double ours;
                long cpu0 = b.redisCpuMs();
                long cpuBare;
                long cpuOurs;
                if (round % 2 == 1) {
                    bare = bareLoop(b, shards, batch, total);
                    cpuBare = b.redisCpuMs() - cpu0;
                    ours = shardline(b, shards, batch, total);
                    cpuOurs = b.redisCpuMs() - cpu0 - cpuBare;
                } else {
                    ours = shardline(b, shards, batch, total);
                    cpuOurs = b.redisCpuMs() - cpu0;
                    bare = bareLoop(b, shards, batch, total);
                    cpuBare = b.redisCpuMs() - cpu0 - cpuOurs;
                }
                System.out.printf(Locale.ROOT, "throughput round %d: bare XREADGROUP+XACK %.0f rec/s (redis CPU %d ms), "
                                + "shardline no-op %.0f rec/s (redis CPU %d ms), ratio %.2f%n",
                        round, bare, cpuBare, ours, cpuOurs, ours / bare);
                if (round > 1) {
                    ratios.add(ours / bare); // round 1 warms the JIT up
                }
            }
        }
        java.util.Collections.sort(ratios);
        System.out.printf(Locale.ROOT, "throughput ratio shardline/bare over rounds 2-5: median %.2f (min %.2f, max %.2f)%n",
                (ratios.get(1) + ratios.get(2)) / 2, ratios.get(0), ratios.get(3));
    }

    private static double bareLoop(BenchRedis b, List<ShardId> shards, int batch, long total) {
        AtomicLong consumed = new AtomicLong();
        long start = System.nanoTime();
        List<Future<Void>> loops = new ArrayList<>();
        for (ShardId s : shards) {
            Promise<Void> done = Promise.promise();
            b.vertx.runOnContext(v -> bareStep(b, s, batch, consumed, done));
            loops.add(done.future());
        }
        await(Future.all(loops));
        double seconds = (System.nanoTime() - start) / 1e9;
        if (consumed.get() != total) {
            throw new IllegalStateException("bare loop consumed " + consumed.get() + " of " + total);
        }
        return total / seconds;
    }

    private static void bareStep(BenchRedis b, ShardId s, int batch, AtomicLong consumed, Promise<Void> done) {
        b.redis.send(Request.cmd(Command.XREADGROUP).arg("GROUP").arg("bare").arg("bare").arg("COUNT").arg(batch)
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
                    Request ack = Request.cmd(Command.XACK).arg(s.key()).arg("bare");
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
                        bareStep(b, s, batch, consumed, done);
                    });
                });
    }

    private static double shardline(BenchRedis b, List<ShardId> shards, int batch, long total) {
        AtomicLong handled = new AtomicLong();
        SyncHandler noop = new SyncHandler() {
            @Override
            public void handle(StreamRecord record, ShardContext shard) {
                handled.incrementAndGet();
            }
        };
        ConsumerSettings settings = ConsumerSettings.defaults("sl", "tp.dlq").withConcurrency(shards.size(), batch);
        MemberShards m = b.member("m", noop, settings, "tp");
        long start = System.nanoTime();
        shards.forEach(s -> await(m.acquire(s, 1)));
        waitUntil(600_000, () -> handled.get() >= total);
        double seconds = (System.nanoTime() - start) / 1e9;
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
            System.out.printf(Locale.ROOT, "latency at 10000 rec/s, 16 shards, 4 workers: %s (n=%d)%n", handler.summary(), handler.count());
            await(m.close());
        }
    }

    // ---- fairness ----

    static void fairness() {
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
                System.out.printf(Locale.ROOT, "fairness, 64 shards over 4 workers, %s: other shards %s (n=%d) over %.1f s%n",
                        backlog ? "shard 0 with a 100000-record backlog" : "no backlog", handler.summary(), handler.count(), drainSeconds);
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

        private static double pct(long[] sorted, double q) {
            return sorted.length == 0 ? 0.0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)] / 1e6;
        }
    }
}
