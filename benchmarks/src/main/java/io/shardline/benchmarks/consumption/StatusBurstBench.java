package io.shardline.benchmarks.consumption;

import static io.shardline.benchmarks.consumption.BenchRedis.await;
import static io.shardline.benchmarks.consumption.BenchRedis.shards;
import static io.shardline.benchmarks.consumption.BenchRedis.waitUntil;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.runtime.control.ShardStatusReader;
import io.shardline.runtime.shard.ConsumerSettings;
import io.shardline.runtime.shard.MemberShards;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * What a status sample does to the records' latency (docs/benchmarks.md, "Status reads beside consumption"): 16
 * shards, 4 local workers, 5,000 records/s, latency = handler call - XADD issue, three phases of
 * {@code bench.burst.seconds} (default 10) each after a 5 s warm-up: no status reads (the baseline); a status read of
 * the 16 shards every {@code bench.burst.everyMs} (default 250; the sampler reads every 5 s, the console every 2 s,
 * several tabs and scripts add up) sent as the sampler sent them before, three commands per shard all at once on the
 * pool the fenced reads use; and the same reads as the sampler sends them now ({@link ShardStatusReader} on the
 * monitoring connection). Prints each phase's quantiles and the p99.9 and max ratios to the baseline.
 */
final class StatusBurstBench {

    private StatusBurstBench() {
    }

    static void run() {
        long phaseMs = Long.getLong("bench.burst.seconds", 10) * 1_000;
        long everyMs = Long.getLong("bench.burst.everyMs", 250);
        try (BenchRedis b = new BenchRedis()) {
            List<ShardId> shards = shards("burst", 16);
            b.group(shards, "g", "m", 1);
            LatencyRecorder recorder = new LatencyRecorder((int) (phaseMs * 6), s -> true);
            MemberShards m = b.member("m", recorder, ConsumerSettings.defaults("g", "burst.dlq").withConcurrency(4, 100),
                    "burst");
            shards.forEach(s -> await(m.acquire(s, 1)));
            RedisClient client = await(RedisClient.connect(b.vertx, RedisConfig.standalone(b.server.uri()),
                    new SplittableRandom(5)));
            ShardStatusReader reader = new ShardStatusReader(client);
            SteadyProducer producer = new SteadyProducer(b, shards, 5_000);
            producer.run(5_000); // warm-up
            long[] quiet = phase(b, producer, recorder, phaseMs, everyMs, null);
            long[] pooled = phase(b, producer, recorder, phaseMs, everyMs, () -> sharedPool(b, shards));
            long[] monitored = phase(b, producer, recorder, phaseMs, everyMs,
                    () -> reader.read("g", shards, Set.of()).mapEmpty());
            System.out.printf(Locale.ROOT, "status reads beside consumption at 5000 rec/s, 16 shards, a read of every "
                            + "shard every %d ms, %d s per phase (load %s):%n  none: %s%n  on the shared pool: %s%n"
                            + "  on the monitoring connection: %s%n", everyMs, phaseMs / 1000, BenchStats.loadAverage(),
                    BenchStats.summary(quiet), BenchStats.summary(pooled), BenchStats.summary(monitored));
            figure("pooled", pooled, quiet);
            figure("monitoring", monitored, quiet);
            await(client.close());
            await(m.close());
        }
    }

    private static long[] phase(BenchRedis b, SteadyProducer producer, LatencyRecorder recorder, long phaseMs,
                                long everyMs, java.util.function.Supplier<Future<Void>> burst) {
        recorder.reset();
        long timer = burst == null ? -1 : b.vertx.setPeriodic(everyMs, id -> burst.get());
        producer.run(phaseMs);
        if (timer >= 0) {
            b.vertx.cancelTimer(timer);
        }
        waitUntil(60_000, () -> recorder.count() >= producer.sentSinceReset());
        long[] latencies = recorder.latencies();
        System.out.println("status-burst phase " + (burst == null ? "none" : "with reads") + ": "
                + BenchStats.summary(latencies));
        return latencies;
    }

    /** The reads of the sampler before: HGETALL, XINFO GROUPS and XPENDING of every shard at once on the pool. */
    private static Future<Void> sharedPool(BenchRedis b, List<ShardId> shards) {
        List<Future<?>> all = new ArrayList<>();
        for (ShardId shard : shards) {
            all.add(b.redis.send(Request.cmd(Command.HGETALL).arg(shard.ownerKey("g"))));
            all.add(b.redis.send(Request.cmd(Command.XINFO).arg("GROUPS").arg(shard.key())));
            all.add(b.redis.send(Request.cmd(Command.XPENDING).arg(shard.key()).arg("g").arg("-").arg("+").arg(1)));
        }
        return Future.join(all).mapEmpty();
    }

    private static void figure(String name, long[] phase, long[] baseline) {
        System.out.printf(Locale.ROOT, "FIGURE status_burst.%s.p999_ratio=%.2f%nFIGURE status_burst.%s.max_ratio=%.2f%n",
                name, BenchStats.quantileMs(phase, 0.999) / BenchStats.quantileMs(baseline, 0.999),
                name, BenchStats.quantileMs(phase, 1.0) / BenchStats.quantileMs(baseline, 1.0));
    }
}
