package io.shardline.benchmarks.consumption;

import static io.shardline.benchmarks.consumption.BenchRedis.await;
import static io.shardline.benchmarks.consumption.BenchRedis.shards;
import static io.shardline.benchmarks.consumption.BenchRedis.waitUntil;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.shard.ConsumerSettings;
import io.shardline.runtime.shard.MemberShards;
import java.util.List;
import java.util.Locale;

/**
 * Latency at a steady 10,000 records/s: 16 shards, 4 local workers, {@code batch.size} 100; a producer in the same
 * JVM writes round-robin over the shards, each record carrying System.nanoTime() at its XADD; latency = handler call
 * - XADD issue. 5 s warm-up, then {@code bench.latency.seconds} (default 20) measured.
 */
final class LatencyBench {

    private LatencyBench() {
    }

    static void run() {
        long measuredMs = Long.getLong("bench.latency.seconds", 20) * 1_000;
        try (BenchRedis b = new BenchRedis()) {
            List<ShardId> shards = shards("lat", 16);
            b.group(shards, "g", "m", 1);
            LatencyRecorder recorder = new LatencyRecorder((int) (measuredMs * 12), s -> true);
            MemberShards m = b.member("m", recorder, ConsumerSettings.defaults("g", "lat.dlq").withConcurrency(4, 100).withAckLinger(Long.getLong("bench.ackLingerMs", ConsumerSettings.DEFAULT_ACK_LINGER_MS)), "lat");
            shards.forEach(s -> await(m.acquire(s, 1)));
            SteadyProducer producer = new SteadyProducer(b, shards, 10_000);
            producer.run(5_000); // warm-up
            recorder.reset();
            long gc0 = gcMs();
            long redis0 = b.redisCpuMs();
            long jvm0 = BenchStats.jvmCpuMs();
            java.util.Map<String, Long> threads0 = BenchStats.threadCpuByKind();
            jdk.jfr.Recording recording = BenchStats.startRecording();
            b.resetCommandStats();
            producer.run(measuredMs);
            b.printCommandStats("the latency run", measuredMs / 1000.0);
            BenchStats.stopRecording(recording, "latency");
            double seconds = measuredMs / 1000.0;
            String cpu = String.format(Locale.ROOT, "per second: redis CPU %.0f ms, JVM CPU %.0f ms; thread CPU ms over the whole run %s",
                    (b.redisCpuMs() - redis0) / seconds, (BenchStats.jvmCpuMs() - jvm0) / seconds,
                    BenchStats.minus(BenchStats.threadCpuByKind(), threads0));
            waitUntil(30_000, () -> recorder.count() >= producer.sentSinceReset());
            long[] all = recorder.latencies();
            double p99 = BenchStats.quantileMs(all, 0.99);
            System.out.printf(Locale.ROOT, "latency at 10000 rec/s, 16 shards, 4 workers, %d s (load %s): %s (n=%d, GC pauses %d ms; "
                            + "%s); target p99 <= 5 ms: %s%n", measuredMs / 1000, BenchStats.loadAverage(), BenchStats.summary(all),
                    all.length, gcMs() - gc0, cpu, p99 <= 5.0 ? "met" : "NOT met");
            await(m.close());
        }
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
