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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throughput: a no-op handler, one member, 16 shards, {@code max.concurrency} 16, {@code batch.size} 100, against a
 * bare {@code XREADGROUP COUNT 100} + {@code XACK} loop per shard (16 concurrent loops) written with the same Vert.x
 * Redis client and pool size, on its own consumer group of the same prefilled streams. Every round starts a fresh
 * redis-server, fills the shards and runs both sides back to back, the order alternating per round; the first
 * {@link #WARM_UP_ROUNDS} rounds are not counted. The ratio of record is the median of the measured rounds.
 *
 * <p>System properties: {@code bench.throughput.perShard} (entries per shard, default 125,000, so one side handles
 * 2,000,000 records: several seconds), {@code bench.throughput.rounds} (measured rounds, default 7),
 * {@code bench.throughput.script=true} adds the scripted hot path ({@link HotPath#SCRIPT}) as a third side.
 */
final class ThroughputBench {

    /**
     * Rounds not counted: they run every side so the JIT has compiled all of them (one was not enough with short
     * sides: the JIT compiler threads still used 0.4-1.2 s of CPU during round 2, on the same two cores).
     */
    static final int WARM_UP_ROUNDS = 2;
    static final int SHARDS = 16;
    static final int BATCH = 100;

    /** Thread CPU by kind, redis-server CPU and JVM CPU right when the last measured side finished (before its member closed). */
    private static Map<String, Long> lastThreads = Map.of();
    private static long lastRedisCpu;
    private static long lastJvmCpu;

    private ThroughputBench() {
    }

    /** What one side did: its rate and the CPU it cost. */
    record Side(double recordsPerSecond, long redisCpuMs, long jvmCpuMs, Map<String, Long> threads) {
    }

    static void run() {
        int perShard = Integer.getInteger("bench.throughput.perShard", 125_000);
        int measured = Integer.getInteger("bench.throughput.rounds", 7);
        boolean script = Boolean.getBoolean("bench.throughput.script");
        List<String> sides = script ? List.of("bare", "transaction", "script") : List.of("bare", "transaction");
        long total = (long) SHARDS * perShard;
        System.out.printf(Locale.ROOT, "throughput: %d shards x %d entries (%d records per side), batch %d, %d warm-up + %d "
                + "measured rounds, sides %s%n", SHARDS, perShard, total, BATCH, WARM_UP_ROUNDS, measured, sides);
        List<Double> txRatios = new ArrayList<>();
        List<Double> scriptRatios = new ArrayList<>();
        double bareSum = 0;
        double txSum = 0;
        for (int round = 1; round <= WARM_UP_ROUNDS + measured; round++) {
            try (BenchRedis b = new BenchRedis()) {
                List<ShardId> shards = shards("tp", SHARDS);
                b.fillAll(shards, perShard);
                b.group(shards, "bare", null, 0);
                b.group(shards, "transaction", "m", 1);
                if (script) {
                    b.group(shards, "script", "m", 1);
                }
                Map<String, Side> result = new java.util.HashMap<>();
                for (int k = 0; k < sides.size(); k++) {
                    String side = sides.get((k + round) % sides.size()); // rotate: no side always first or last
                    result.put(side, measure(b, side, shards, total, side));
                }
                Side bare = result.get("bare");
                Side tx = result.get("transaction");
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                        "throughput round %d%s (load %s): bare %.0f rec/s [%s], transaction %.0f rec/s [%s], ratio %.2f",
                        round, round <= WARM_UP_ROUNDS ? " (warm-up)" : "", BenchStats.loadAverage(), bare.recordsPerSecond(),
                        cpu(bare, total), tx.recordsPerSecond(), cpu(tx, total), tx.recordsPerSecond() / bare.recordsPerSecond()));
                if (script) {
                    Side sc = result.get("script");
                    line.append(String.format(Locale.ROOT, "; script %.0f rec/s [%s], ratio %.2f", sc.recordsPerSecond(), cpu(sc, total),
                            sc.recordsPerSecond() / bare.recordsPerSecond()));
                }
                System.out.println(line);
                if (round > WARM_UP_ROUNDS) {
                    txRatios.add(tx.recordsPerSecond() / bare.recordsPerSecond());
                    bareSum += total / bare.recordsPerSecond();
                    txSum += total / tx.recordsPerSecond();
                    if (script) {
                        scriptRatios.add(result.get("script").recordsPerSecond() / bare.recordsPerSecond());
                    }
                }
            }
        }
        double ratio = BenchStats.median(txRatios);
        System.out.printf(Locale.ROOT, "throughput ratio transaction/bare over rounds %d-%d (load %s): %s; total time bare/transaction "
                        + "%.2f; target >= 0.90: %s%n", WARM_UP_ROUNDS + 1, WARM_UP_ROUNDS + measured, BenchStats.loadAverage(),
                BenchStats.medianMinMax(txRatios), bareSum / txSum, ratio >= 0.90 ? "met" : "NOT met");
        if (script) {
            System.out.printf(Locale.ROOT, "throughput ratio script/bare: %s%n", BenchStats.medianMinMax(scriptRatios));
        }
    }

    /**
     * One side alone, {@code rounds} times (for profiling it: the other side's samples stay out of the recording), with
     * per-thread CPU. Not a comparison; the ratio is only measured by {@link #run}.
     */
    static void side(String side, int rounds) {
        int perShard = Integer.getInteger("bench.throughput.perShard", 125_000);
        long total = (long) SHARDS * perShard;
        for (int round = 1; round <= rounds; round++) {
            try (BenchRedis b = new BenchRedis()) {
                List<ShardId> shards = shards("tp", SHARDS);
                b.fillAll(shards, perShard);
                b.group(shards, "g", side.equals("bare") ? null : "m", 1);
                jdk.jfr.Recording recording = BenchStats.startRecording();
                Side s = measure(b, side, shards, total, "g");
                BenchStats.stopRecording(recording, side + "-" + round);
                System.out.printf(Locale.ROOT, "side %s round %d (load %s): %.0f rec/s [%s], threads %s%n",
                        side, round, BenchStats.loadAverage(), s.recordsPerSecond(), cpu(s, total), s.threads());
            }
        }
    }

    private static String cpu(Side s, long total) {
        double perMillion = 1e6 / total;
        return String.format(Locale.ROOT, "CPU per 1M records: redis %.0f ms, JVM %.0f ms", s.redisCpuMs() * perMillion,
                s.jvmCpuMs() * perMillion);
    }

    private static Side measure(BenchRedis b, String side, List<ShardId> shards, long total, String group) {
        long redis0 = b.redisCpuMs();
        long jvm0 = BenchStats.jvmCpuMs();
        Map<String, Long> threads0 = BenchStats.threadCpuByKind();
        double rate = switch (side) {
            case "bare" -> bareLoop(b, shards, total, group);
            case "transaction" -> shardline(b, shards, total, group, HotPath.TRANSACTION);
            case "script" -> shardline(b, shards, total, group, HotPath.SCRIPT);
            default -> throw new IllegalArgumentException("side: bare, transaction or script, got " + side);
        };
        // lastThreads, redis and JVM CPU are taken when the last record was handled, before the member closed
        return new Side(rate, lastRedisCpu - redis0, lastJvmCpu - jvm0, BenchStats.minus(lastThreads, threads0));
    }

    private static void sideDone(BenchRedis b) {
        lastThreads = BenchStats.threadCpuByKind();
        lastRedisCpu = b.redisCpuMs();
        lastJvmCpu = BenchStats.jvmCpuMs();
    }

    private static double bareLoop(BenchRedis b, List<ShardId> shards, long total, String group) {
        AtomicLong consumed = new AtomicLong();
        long start = System.nanoTime();
        List<Future<Void>> loops = new ArrayList<>();
        for (ShardId s : shards) {
            Promise<Void> done = Promise.promise();
            b.vertx.runOnContext(v -> bareStep(b, s, group, consumed, done));
            loops.add(done.future());
        }
        await(Future.all(loops));
        double seconds = (System.nanoTime() - start) / 1e9;
        sideDone(b);
        if (consumed.get() != total) {
            throw new IllegalStateException("bare loop consumed " + consumed.get() + " of " + total);
        }
        return total / seconds;
    }

    private static void bareStep(BenchRedis b, ShardId s, String group, AtomicLong consumed, Promise<Void> done) {
        b.redis.send(Request.cmd(Command.XREADGROUP).arg("GROUP").arg(group).arg("bare").arg("COUNT").arg(BATCH)
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
                        bareStep(b, s, group, consumed, done);
                    });
                });
    }

    private static double shardline(BenchRedis b, List<ShardId> shards, long total, String group, HotPath path) {
        AtomicLong handled = new AtomicLong();
        SyncHandler noop = new SyncHandler() {
            @Override
            public void handle(StreamRecord record, ShardContext shard) {
                handled.incrementAndGet();
            }
        };
        ConsumerSettings settings = ConsumerSettings.defaults(group, "tp.dlq").withConcurrency(shards.size(), BATCH).withHotPath(path);
        MemberShards m = b.member("m", noop, settings, "tp");
        long start = System.nanoTime();
        shards.forEach(s -> await(m.acquire(s, 1)));
        waitUntil(600_000, () -> handled.get() >= total);
        double seconds = (System.nanoTime() - start) / 1e9;
        sideDone(b);
        await(m.close());
        return total / seconds;
    }
}
