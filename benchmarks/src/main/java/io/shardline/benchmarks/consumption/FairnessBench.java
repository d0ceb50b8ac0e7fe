package io.shardline.benchmarks.consumption;

import static io.shardline.benchmarks.consumption.BenchRedis.await;
import static io.shardline.benchmarks.consumption.BenchRedis.shards;
import static io.shardline.benchmarks.consumption.BenchRedis.waitUntil;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.shard.ConsumerSettings;
import io.shardline.runtime.shard.MemberShards;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Fairness: 64 shards over 4 local workers ({@code batch.size} 100); shards 1-63 get a steady 50 records/s each
 * (3,150/s) for the whole run; the latency of their records is measured in windows of two kinds, alternating:
 * <ul>
 *   <li><b>B</b>, with backlog: shard 0 holds at least 100,000 unhandled entries from the window's start to its end
 *       (it is filled, paused, beforehand with 100,000 plus what it drains in a window, and the window ends early if
 *       the backlog falls under 100,000);</li>
 *   <li><b>A</b>, without: shard 0 is active and empty; as long as the B window just before it.</li>
 * </ul>
 * Between windows (not measured): filling shard 0, draining what is left of its backlog, and a settling pause. A
 * record belongs to the window its XADD was issued in. The figure of record is the other shards' pooled p99 in B over
 * their pooled p99 in A, over {@code bench.fairness.cycles} (default 12) B+A cycles of {@code bench.fairness.windowMs}
 * (default 1,000) each, after one unmeasured warm-up cycle. Printed beside it: the per-shard p99 ratios, and the median
 * over cycles of each cycle's own ratio (B's p99 over the next A's), which a burst of another process's CPU use in one
 * window moves less than the pooled figure.
 */
final class FairnessBench {

    static final int SHARDS = 64;
    static final int BACKLOG = 100_000;
    static final long SETTLE_MS = 200;

    private FairnessBench() {
    }

    /** A measured window: XADD times in [start, end), and what it cost (see {@link Usage}). */
    record Window(boolean backlog, long start, long end, Usage usage) {
        boolean contains(long t) {
            return t >= start && t < end;
        }
    }

    /** CPU (ms) of redis-server, of the JVM and of its event loops, and GC pauses (ms, count) over a window. */
    record Usage(long redisMs, long jvmMs, long eventLoopMs, long gcMs, long gcCount, long hotHandled) {
        static Usage now(BenchRedis b, LatencyRecorder recorder) {
            long gcMs = 0;
            long gcCount = 0;
            for (java.lang.management.GarbageCollectorMXBean gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
                gcMs += Math.max(0, gc.getCollectionTime());
                gcCount += Math.max(0, gc.getCollectionCount());
            }
            return new Usage(b.redisCpuMs(), BenchStats.jvmCpuMs(), BenchStats.threadCpuByKind().getOrDefault("event loops", 0L), gcMs, gcCount,
                    recorder.others());
        }

        Usage minus(Usage o) {
            return new Usage(redisMs - o.redisMs, jvmMs - o.jvmMs, eventLoopMs - o.eventLoopMs, gcMs - o.gcMs, gcCount - o.gcCount,
                    hotHandled - o.hotHandled);
        }

        Usage plus(Usage o) {
            return new Usage(redisMs + o.redisMs, jvmMs + o.jvmMs, eventLoopMs + o.eventLoopMs, gcMs + o.gcMs, gcCount + o.gcCount,
                    hotHandled + o.hotHandled);
        }

        String perSecond(double seconds) {
            return String.format(Locale.ROOT, "per second: redis CPU %.0f ms, JVM CPU %.0f ms (event loops %.0f ms), GC pauses %.1f ms in %.1f",
                    redisMs / seconds, jvmMs / seconds, eventLoopMs / seconds, gcMs / seconds, gcCount / seconds);
        }
    }

    static void run() {
        int cycles = Integer.getInteger("bench.fairness.cycles", 12);
        long windowMs = Long.getLong("bench.fairness.windowMs", 1_000);
        try (BenchRedis b = new BenchRedis()) {
            List<ShardId> shards = shards("fair", SHARDS);
            ShardId hot = shards.get(0);
            b.group(shards, "g", "m", 1);
            LatencyRecorder recorder = new LatencyRecorder(4_000_000, s -> !s.equals(hot));
            MemberShards m = b.member("m", recorder, ConsumerSettings.defaults("g", "fair.dlq").withConcurrency(4, 100).withAckLinger(Long.getLong("bench.ackLingerMs", ConsumerSettings.DEFAULT_ACK_LINGER_MS)), "fair");
            shards.forEach(s -> await(m.acquire(s, 1)));
            SteadyProducer producer = new SteadyProducer(b, shards.subList(1, SHARDS), 3_150); // 50 rec/s per other shard
            producer.start();
            sleep(Long.getLong("bench.fairness.steadyMs", 3_000)); // warm-up of the steady part (longer to profile it alone)
            Hot h = new Hot(b, m, hot, recorder);
            h.cycle(windowMs, 200_000.0); // warm-up cycle: the backlog path compiled, the drain rate estimated
            recorder.reset();
            long sentAtReset = producer.sent();
            List<Window> windows = new ArrayList<>();
            double rate = h.lastRate;
            for (int c = 0; c < cycles; c++) {
                windows.addAll(h.cycle(windowMs, rate));
                rate = h.lastRate;
            }
            producer.stop();
            waitUntil(60_000, () -> recorder.count() >= producer.sent() - sentAtReset - 100); // a few handled before the reset

            report(recorder, windows, cycles);
            if (Boolean.getBoolean("bench.commandstats")) {
                double sa = windows.stream().filter(w -> !w.backlog()).mapToLong(w -> w.end() - w.start()).sum() / 1e9;
                double sb = windows.stream().filter(Window::backlog).mapToLong(w -> w.end() - w.start()).sum() / 1e9;
                System.out.println(BenchRedis.formatCommandStats("the windows without backlog", h.commandsA, sa));
                System.out.println(BenchRedis.formatCommandStats("the windows with backlog", h.commandsB, sb));
            }
            await(m.close());
        }
    }

    private static void report(LatencyRecorder recorder, List<Window> windows, int cycles) {
        // by kind (0: without backlog, 1: with) and shard: the latencies of the samples XADDed inside a window
        LatencyRecorder.Samples samples = recorder.samples();
        long[][][] byKind = new long[2][SHARDS][];
        int[][] counts = new int[2][SHARDS];
        int[] kindOf = new int[samples.sentAt().length];
        for (int i = 0; i < kindOf.length; i++) {
            kindOf[i] = -1;
            for (Window w : windows) {
                if (w.contains(samples.sentAt()[i])) {
                    kindOf[i] = w.backlog() ? 1 : 0;
                    counts[kindOf[i]][samples.shard()[i]]++;
                    break;
                }
            }
        }
        for (int k = 0; k < 2; k++) {
            for (int s = 0; s < SHARDS; s++) {
                byKind[k][s] = new long[counts[k][s]];
                counts[k][s] = 0;
            }
        }
        for (int i = 0; i < kindOf.length; i++) {
            if (kindOf[i] >= 0) {
                int s = samples.shard()[i];
                byKind[kindOf[i]][s][counts[kindOf[i]][s]++] = samples.latency()[i];
            }
        }
        // per cycle: the p99 of its B window over the p99 of its A window (windows come as B, A, B, A, ...)
        List<Double> perCycle = new ArrayList<>();
        for (int c = 0; c + 1 < windows.size(); c += 2) {
            Window wb = windows.get(c);
            Window wa = windows.get(c + 1);
            long[] lb = java.util.stream.IntStream.range(0, kindOf.length).filter(i -> wb.contains(samples.sentAt()[i]))
                    .mapToLong(i -> samples.latency()[i]).sorted().toArray();
            long[] la = java.util.stream.IntStream.range(0, kindOf.length).filter(i -> wa.contains(samples.sentAt()[i]))
                    .mapToLong(i -> samples.latency()[i]).sorted().toArray();
            perCycle.add(BenchStats.quantileMs(lb, 0.99) / BenchStats.quantileMs(la, 0.99));
        }
        long[] a = pooled(byKind[0]);
        long[] bl = pooled(byKind[1]);
        double secondsA = windows.stream().filter(w -> !w.backlog()).mapToLong(w -> w.end() - w.start()).sum() / 1e9;
        double secondsB = windows.stream().filter(Window::backlog).mapToLong(w -> w.end() - w.start()).sum() / 1e9;
        Usage usageA = windows.stream().filter(w -> !w.backlog()).map(Window::usage).reduce(Usage::plus).orElseThrow();
        Usage usageB = windows.stream().filter(Window::backlog).map(Window::usage).reduce(Usage::plus).orElseThrow();
        System.out.printf(Locale.ROOT, "fairness, 64 shards over 4 workers, other shards without backlog, %d windows, %.1f s (load %s): %s (n=%d); "
                + "%s%n", cycles, secondsA, BenchStats.loadAverage(), BenchStats.summary(a), a.length, usageA.perSecond(secondsA));
        System.out.printf(Locale.ROOT, "fairness, 64 shards over 4 workers, other shards while shard 0 has >= %d entries backlog, %d windows, "
                + "%.1f s (load %s): %s (n=%d); %s; shard 0 drained %.0f rec/s%n", BACKLOG, cycles, secondsB, BenchStats.loadAverage(),
                BenchStats.summary(bl), bl.length, usageB.perSecond(secondsB), usageB.hotHandled() / secondsB);
        List<Double> perShard = new ArrayList<>();
        int within = 0;
        for (int s = 1; s < SHARDS; s++) {
            java.util.Arrays.sort(byKind[0][s]);
            java.util.Arrays.sort(byKind[1][s]);
            double r = BenchStats.quantileMs(byKind[1][s], 0.99) / BenchStats.quantileMs(byKind[0][s], 0.99);
            perShard.add(r);
            within += r <= 2.0 ? 1 : 0;
        }
        System.out.printf(Locale.ROOT, "fairness: per shard (~%d samples each with backlog), p99 with / without backlog: %s; %d of %d "
                + "shards within 2x%n", bl.length / (SHARDS - 1), BenchStats.medianMinMax(perShard), within, SHARDS - 1);
        System.out.printf(Locale.ROOT, "fairness: per cycle, p99 with / without backlog: %s%n", BenchStats.medianMinMax(perCycle));
        double p99a = BenchStats.quantileMs(a, 0.99);
        double p99b = BenchStats.quantileMs(bl, 0.99);
        double ratio = p99b / p99a;
        System.out.printf(Locale.ROOT, "fairness: other shards' p99 with the backlog / without = %.2f / %.2f ms = %.2fx; target <= 2x: %s%n",
                p99b, p99a, ratio, ratio <= 2.0 ? "met" : "NOT met");
    }

    private static long[] pooled(long[][] byShard) {
        long[] all = java.util.Arrays.stream(byShard).flatMapToLong(java.util.Arrays::stream).toArray();
        java.util.Arrays.sort(all);
        return all;
    }

    /** The backlogged shard: filled, drained and measured one cycle at a time. */
    private static final class Hot {
        private final BenchRedis b;
        private final MemberShards member;
        private final ShardId shard;
        private final LatencyRecorder recorder;
        private long filled;
        double lastRate;
        final java.util.Map<String, long[]> commandsA = new java.util.TreeMap<>();
        final java.util.Map<String, long[]> commandsB = new java.util.TreeMap<>();

        Hot(BenchRedis b, MemberShards member, ShardId shard, LatencyRecorder recorder) {
            this.b = b;
            this.member = member;
            this.shard = shard;
            this.recorder = recorder;
        }

        /** One B window then one A window of the same length; {@code rate} is the expected drain rate (records/s). */
        List<Window> cycle(long windowMs, double rate) {
            // fill, with shard 0 paused: 100,000 + what it drains in a window, with a margin
            await(member.pause(shard));
            int n = BACKLOG + (int) Math.min(2_000_000, rate * windowMs / 1000 * 1.6);
            b.fillAll(List.of(shard), n);
            filled += n;
            sleep(SETTLE_MS);
            // B: the backlog is >= 100,000 from start to end
            long handled0 = recorder.others();
            b.resetCommandStats();
            Usage u0 = Usage.now(b, recorder);
            long start = System.nanoTime();
            await(member.resume(shard));
            long deadline = start + windowMs * 1_000_000L;
            while (System.nanoTime() < deadline && filled - recorder.others() >= BACKLOG) {
                sleep(1);
            }
            long end = System.nanoTime();
            Window backlog = new Window(true, start, end, Usage.now(b, recorder).minus(u0));
            if (Boolean.getBoolean("bench.commandstats")) {
                b.commandStats(commandsB);
            }
            lastRate = (recorder.others() - handled0) / ((end - start) / 1e9);
            // drain the rest (not measured), drop the handled entries, settle
            waitUntil(120_000, () -> recorder.others() >= filled);
            await(b.redis.send(Request.cmd(Command.XTRIM).arg(shard.key()).arg("MAXLEN").arg(0)));
            sleep(SETTLE_MS);
            // A: shard 0 active and empty, as long as B was
            b.resetCommandStats();
            Usage ua = Usage.now(b, recorder);
            long aStart = System.nanoTime();
            sleep((end - start) / 1_000_000L);
            Window none = new Window(false, aStart, System.nanoTime(), Usage.now(b, recorder).minus(ua));
            if (Boolean.getBoolean("bench.commandstats")) {
                b.commandStats(commandsA);
            }
            sleep(50); // the last records of A are handled before the next fill starts
            return List.of(backlog, none);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms); // the bench's own pacing between measurement windows
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
