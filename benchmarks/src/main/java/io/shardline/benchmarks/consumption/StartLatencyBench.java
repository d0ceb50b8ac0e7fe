package io.shardline.benchmarks.consumption;

import static io.shardline.benchmarks.consumption.BenchRedis.await;
import static io.shardline.benchmarks.consumption.BenchRedis.shards;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.shard.ConsumerSettings;
import io.shardline.runtime.shard.MemberShards;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The first minute of a member (issue 23 item 2, "the stall after start"): a fresh JVM, a producer writing at a steady
 * rate ({@code bench.start.rate}, default 5,000 records/s) over 16 shards, and a member that takes all 16 shards
 * (one member, 4 local workers, {@code batch.size} 100) at once; then {@code bench.start.seconds} (default 60) measured
 * from the acquire. Prints, per second after the acquire, the records handled, p99 and max latency (XADD issue to
 * handler call), and the fewest shards that handled a record in any {@value #WINDOW_MS} ms window of that second: a
 * window in which no shard handled anything while records were produced is a stall of every shard at once. Cold: no
 * warm-up, so JIT and the first connections are inside the figures, as they are for a worker that just joined. In
 * process (no coordinator, no status sampler): what the shard machine itself does in its first minute.
 */
final class StartLatencyBench {

    private static final int SHARDS = 16;
    private static final long WINDOW_MS = 50;

    private StartLatencyBench() {
    }

    static void run() {
        int rate = Integer.getInteger("bench.start.rate", 5_000);
        int seconds = Integer.getInteger("bench.start.seconds", 60);
        try (BenchRedis b = new BenchRedis()) {
            List<ShardId> shards = shards("start", SHARDS);
            b.group(shards, "g", "m", 1);
            LatencyRecorder recorder = new LatencyRecorder(rate * (seconds + 5) * 12 / 10, s -> true);
            MemberShards m = b.member("m", recorder, ConsumerSettings.defaults("g", "start.dlq").withConcurrency(4, 100), "start");
            SteadyProducer producer = new SteadyProducer(b, shards, rate);
            producer.start();
            long acquired = System.nanoTime();
            shards.forEach(s -> await(m.acquire(s, 1)));
            BenchRedis.waitUntil(seconds * 1_000L + 60_000, () -> System.nanoTime() - acquired >= seconds * 1_000_000_000L);
            producer.stop();
            LatencyRecorder.Samples samples = recorder.samples();
            System.out.printf(Locale.ROOT, "first %d s of a member at %d rec/s over %d shards (load %s), per second after the acquire:%n",
                    seconds, rate, SHARDS, BenchStats.loadAverage());
            int worstWindow = SHARDS;
            for (int sec = 0; sec < seconds; sec++) {
                long from = acquired + sec * 1_000_000_000L;
                long to = from + 1_000_000_000L;
                long[] lat = Arrays.stream(indices(samples, from, to)).mapToLong(i -> samples.latency()[i]).sorted().toArray();
                int fewest = fewestShardsPerWindow(samples, from, to);
                if (sec > 0) {
                    worstWindow = Math.min(worstWindow, fewest); // the first second: the shards are still being taken
                }
                System.out.printf(Locale.ROOT, "  s %2d: %5d records, p99 %7.2f ms, max %7.2f ms, fewest shards handling in a %d ms window %d%n",
                        sec, lat.length, BenchStats.quantileMs(lat, 0.99), BenchStats.quantileMs(lat, 1.0), WINDOW_MS, fewest);
            }
            System.out.printf(Locale.ROOT, "first %d s: fewest of %d shards handling a record in any %d ms window after the first second: %d "
                    + "(0 = every shard paused at once)%n", seconds, SHARDS, WINDOW_MS, worstWindow);
            await(m.close());
            producer.close();
        }
    }

    /** The samples handled in {@code [from, to)} (nanoTime). */
    private static int[] indices(LatencyRecorder.Samples s, long from, long to) {
        return java.util.stream.IntStream.range(0, s.sentAt().length)
                .filter(i -> s.sentAt()[i] + s.latency()[i] >= from && s.sentAt()[i] + s.latency()[i] < to).toArray();
    }

    /** The fewest distinct shards that handled a record in any {@link #WINDOW_MS} window of {@code [from, to)}. */
    private static int fewestShardsPerWindow(LatencyRecorder.Samples s, long from, long to) {
        long window = WINDOW_MS * 1_000_000L;
        int windows = (int) ((to - from) / window);
        long[] seen = new long[windows];
        for (int i = 0; i < s.sentAt().length; i++) {
            long handled = s.sentAt()[i] + s.latency()[i];
            if (handled >= from && handled < to) {
                seen[(int) ((handled - from) / window)] |= 1L << s.shard()[i];
            }
        }
        return Arrays.stream(seen).mapToInt(Long::bitCount).min().orElse(0);
    }
}
