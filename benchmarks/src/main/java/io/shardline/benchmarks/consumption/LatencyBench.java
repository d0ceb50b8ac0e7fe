package io.shardline.benchmarks.consumption;

import static io.shardline.benchmarks.consumption.BenchRedis.await;
import static io.shardline.benchmarks.consumption.BenchRedis.shards;
import static io.shardline.benchmarks.consumption.BenchRedis.waitUntil;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.shard.ConsumerSettings;
import io.shardline.runtime.shard.MemberShards;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Latency at steady rates (default 5,000 and 10,000 records/s; {@code bench.latency.rates}) over 16 shards: Shardline
 * (one member, 4 local workers, {@code batch.size} 100, fenced reads and acks) beside the baseline of docs/benchmarks.md "Consumption results", a
 * hand-written {@code XREADGROUP BLOCK} + {@code XACK} loop per shard on the same Vert.x Redis client
 * ({@link VertxBlockLoopPeer}: no fencing, no scheduling), measured in the same run on the same redis-server and
 * shards, each with a consumer group of its own, one after the other (the order alternating per round,
 * {@code bench.latency.rounds}, default 1), after one unmeasured phase of each ({@code bench.latency.warmupSeconds},
 * default 10: JIT and connections). A producer in the same JVM writes round-robin over the shards, each record
 * carrying System.nanoTime() at its XADD; latency = handler call - XADD issue. Per phase 5 s warm-up, then
 * {@code bench.latency.seconds} (default 20) measured. Prints p50/p99/p99.9/max of both and the ratio of Shardline's
 * p99 and p99.9 to the baseline's (target: within 2x). {@code -Dbench.latency.baseline=false} runs Shardline's phases
 * alone (to compare builds: with {@code bench.latency.warmupSeconds=0} and {@code bench.latency.rates=10000} it is the
 * single phase this bench ran before the baseline was added).
 */
final class LatencyBench {

    private static final int SHARDS = 16;

    private LatencyBench() {
    }

    static void run() {
        long measuredMs = Long.getLong("bench.latency.seconds", 20) * 1_000;
        int rounds = Integer.getInteger("bench.latency.rounds", 1);
        boolean withBaseline = Boolean.parseBoolean(System.getProperty("bench.latency.baseline", "true"));
        for (String r : System.getProperty("bench.latency.rates", "5000,10000").split(",")) {
            int rate = Integer.parseInt(r.trim());
            try (BenchRedis b = new BenchRedis()) {
                List<ShardId> shards = shards("lat", SHARDS);
                List<long[]> base = new ArrayList<>();
                List<long[]> shardline = new ArrayList<>();
                long warmMs = Long.getLong("bench.latency.warmupSeconds", 10) * 1_000;
                if (warmMs > 0) { // JIT and first connections of both sides before anything is measured
                    if (withBaseline) {
                        baseline(b, shards, rate, warmMs, "warm-base");
                    }
                    shardline(b, shards, rate, warmMs, "warm-g");
                }
                for (int round = 0; round < rounds; round++) {
                    boolean baseFirst = round % 2 == 0;
                    for (int k = 0; k < 2; k++) {
                        if (baseFirst == (k == 0)) {
                            if (!withBaseline) {
                                continue;
                            }
                            base.add(baseline(b, shards, rate, measuredMs, "base" + round));
                        } else {
                            shardline.add(shardline(b, shards, rate, measuredMs, "g" + round));
                        }
                    }
                }
                if (!withBaseline) {
                    continue; // each Shardline phase printed its own line
                }
                long[] baseAll = concat(base);
                long[] ours = concat(shardline);
                System.out.printf(Locale.ROOT, "latency at %d rec/s, %d shards, %d round(s) of %d s (load %s): shardline %s; "
                                + "baseline %s; ratio p50 %.2f, p99 %.2f, p99.9 %.2f (target p99 and p99.9 <= 2.00)%n",
                        rate, SHARDS, rounds, measuredMs / 1000, BenchStats.loadAverage(), BenchStats.summary(ours),
                        BenchStats.summary(baseAll), ratio(ours, baseAll, 0.50), ratio(ours, baseAll, 0.99),
                        ratio(ours, baseAll, 0.999));
            }
        }
    }

    /** One Shardline phase on consumer group {@code group}: the sorted latencies (ns). */
    private static long[] shardline(BenchRedis b, List<ShardId> shards, int rate, long measuredMs, String group) {
        for (ShardId s : shards) {
            await(b.commands.ensureGroup(s, group, "$"));
            await(b.commands.setOwner(s, group, "m", 1));
        }
        LatencyRecorder recorder = new LatencyRecorder(capacity(rate, measuredMs), s -> true);
        ConsumerSettings settings = ConsumerSettings.defaults(group, "lat.dlq").withConcurrency(4, 100)
                .withAckLinger(Long.getLong("bench.ackLingerMs", ConsumerSettings.DEFAULT_ACK_LINGER_MS));
        MemberShards m = b.member("m", recorder, settings, "lat-" + group);
        shards.forEach(s -> await(m.acquire(s, 1)));
        SteadyProducer producer = new SteadyProducer(b, shards, rate);
        producer.run(5_000); // warm-up
        recorder.reset();
        long gc0 = gcMs();
        long redis0 = b.redisCpuMs();
        long jvm0 = BenchStats.jvmCpuMs();
        Map<String, Long> threads0 = BenchStats.threadCpuByKind();
        jdk.jfr.Recording recording = BenchStats.startRecording();
        b.resetCommandStats();
        producer.run(measuredMs);
        b.printCommandStats("the latency run", measuredMs / 1000.0);
        BenchStats.stopRecording(recording, "latency-" + rate + "-" + group);
        String cpu = cpu(b, redis0, jvm0, measuredMs) + "; thread CPU ms over the whole run "
                + BenchStats.minus(BenchStats.threadCpuByKind(), threads0);
        waitUntil(30_000, () -> recorder.count() >= producer.sentSinceReset());
        long[] all = recorder.latencies();
        System.out.printf(Locale.ROOT, "latency at %d rec/s, shardline (16 shards, 4 workers, %d s, load %s): %s (n=%d, GC pauses %d ms; %s)%n",
                rate, measuredMs / 1000, BenchStats.loadAverage(), BenchStats.summary(all), all.length, gcMs() - gc0, cpu);
        await(m.close());
        producer.close();
        return all;
    }

    /** One phase of the hand-written blocking loop on consumer group {@code group}: the sorted latencies (ns). */
    private static long[] baseline(BenchRedis b, List<ShardId> shards, int rate, long measuredMs, String group) {
        for (ShardId s : shards) {
            await(b.commands.ensureGroup(s, group, "$"));
        }
        LatencyRecorder recorder = new LatencyRecorder(capacity(rate, measuredMs), s -> true);
        SteadyProducer producer = new SteadyProducer(b, shards, rate);
        long[] all;
        try (VertxBlockLoopPeer loop = new VertxBlockLoopPeer(b)) {
            loop.start(shards, group, recorder::record);
            producer.run(5_000); // warm-up
            recorder.reset();
            long gc0 = gcMs();
            long redis0 = b.redisCpuMs();
            long jvm0 = BenchStats.jvmCpuMs();
            producer.run(measuredMs);
            String cpu = cpu(b, redis0, jvm0, measuredMs);
            waitUntil(30_000, () -> recorder.count() >= producer.sentSinceReset());
            all = recorder.latencies();
            System.out.printf(Locale.ROOT, "latency at %d rec/s, baseline XREADGROUP BLOCK + XACK loop (%d s, load %s): %s (n=%d, GC pauses %d ms; %s)%n",
                    rate, measuredMs / 1000, BenchStats.loadAverage(), BenchStats.summary(all), all.length, gcMs() - gc0, cpu);
        }
        producer.close();
        return all;
    }

    /** CPU per second of Redis and of this JVM (producer included) since {@code redis0} / {@code jvm0}. */
    private static String cpu(BenchRedis b, long redis0, long jvm0, long measuredMs) {
        double seconds = measuredMs / 1000.0;
        return String.format(Locale.ROOT, "per second: redis CPU %.0f ms, JVM CPU %.0f ms",
                (b.redisCpuMs() - redis0) / seconds, (BenchStats.jvmCpuMs() - jvm0) / seconds);
    }

    private static int capacity(int rate, long measuredMs) {
        return (int) (measuredMs * rate / 1000 * 12 / 10);
    }

    private static double ratio(long[] ours, long[] base, double q) {
        return BenchStats.quantileMs(ours, q) / BenchStats.quantileMs(base, q);
    }

    private static long[] concat(List<long[]> parts) {
        long[] all = new long[parts.stream().mapToInt(p -> p.length).sum()];
        int at = 0;
        for (long[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        java.util.Arrays.sort(all);
        return all;
    }

    /** Total collection time (ms) of this JVM's collectors so far. */
    static long gcMs() {
        long ms = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            ms += Math.max(0, gc.getCollectionTime());
        }
        return ms;
    }
}
