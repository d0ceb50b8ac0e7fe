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
 * The first minute of a member (docs/benchmarks.md "Consumption", the stall after start): a fresh JVM, a producer writing at a steady
 * rate ({@code bench.start.rate}, default 5,000 records/s) over 16 shards, and a member that takes all 16 shards
 * (one member, 4 local workers, {@code batch.size} 100) at once; then {@code bench.start.seconds} (default 60) measured
 * from the acquire. Prints, per second after the acquire, the records handled, p99 and max latency (XADD issue to
 * handler call), and the fewest shards that handled a record in any {@value #WINDOW_MS} ms window of that second: a
 * window in which no shard handled anything while records were produced is a stall of every shard at once. Beside it,
 * at the same time and rate on 16 shards of its own, a control: the hand-written blocking loop ({@link VertxBlockLoopPeer}),
 * whose stalls are the machine's or the JVM's (GC, a busy box); a window in which every Shardline shard paused while
 * at least half the control's shards handled records is counted as Shardline's own stall. Cold: no warm-up, so JIT and
 * the first connections are inside the figures, as they are for a worker that just joined. In process (no
 * coordinator, no status sampler): what the shard machine itself does in its first minute.
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
            List<ShardId> controlShards = shards("control", SHARDS);
            controlShards.forEach(s -> await(b.commands.ensureGroup(s, "c", "0")));
            LatencyRecorder recorder = new LatencyRecorder(rate * (seconds + 5) * 12 / 10, s -> true);
            LatencyRecorder controlRecorder = new LatencyRecorder(rate * (seconds + 5) * 12 / 10, s -> true);
            MemberShards m = b.member("m", recorder, ConsumerSettings.defaults("g", "start.dlq").withConcurrency(4, 100), "start");
            VertxBlockLoopPeer control = new VertxBlockLoopPeer(b);
            control.start(controlShards, "c", controlRecorder::record);
            SteadyProducer producer = new SteadyProducer(b, shards, rate);
            SteadyProducer controlProducer = new SteadyProducer(b, controlShards, rate);
            producer.start();
            controlProducer.start();
            long acquired = System.nanoTime();
            shards.forEach(s -> await(m.acquire(s, 1)));
            BenchRedis.waitUntil(seconds * 1_000L + 60_000, () -> System.nanoTime() - acquired >= seconds * 1_000_000_000L);
            producer.stop();
            controlProducer.stop();
            BenchRedis.waitUntil(60_000, () -> recorder.count() >= producer.sent() && controlRecorder.count() >= controlProducer.sent());
            LatencyRecorder.Samples samples = recorder.samples();
            LatencyRecorder.Samples controlSamples = controlRecorder.samples();
            System.out.printf(Locale.ROOT, "first %d s of a member at %d rec/s over %d shards (load %s), per second after the acquire:%n",
                    seconds, rate, SHARDS, BenchStats.loadAverage());
            int own = 0;
            int both = 0;
            for (int sec = 0; sec < seconds; sec++) {
                long from = acquired + sec * 1_000_000_000L;
                long to = from + 1_000_000_000L;
                long[] lat = latencies(samples, from, to);
                long[] controlLat = latencies(controlSamples, from, to);
                int[] handling = shardsPerWindow(samples, from, to);
                int[] controlHandling = shardsPerWindow(controlSamples, from, to);
                int stalls = 0;
                int ownNow = 0;
                for (int w = 0; w < handling.length; w++) {
                    if (handling[w] == 0 && sec > 0) { // the first second: the shards are still being taken
                        stalls++;
                        if (controlHandling[w] >= SHARDS / 2) {
                            ownNow++;
                            own++;
                        } else {
                            both++;
                        }
                    }
                }
                System.out.printf(Locale.ROOT, "  s %2d: shardline %5d records, p99 %7.2f ms, max %7.2f ms, %d windows with no shard handling (%d Shardline's own); "
                                + "control %5d records, p99 %7.2f ms, max %7.2f ms, fewest shards handling in a window %d%n",
                        sec, lat.length, BenchStats.quantileMs(lat, 0.99), BenchStats.quantileMs(lat, 1.0), stalls, ownNow,
                        controlLat.length, BenchStats.quantileMs(controlLat, 0.99), BenchStats.quantileMs(controlLat, 1.0),
                        Arrays.stream(controlHandling).min().orElse(0));
            }
            System.out.printf(Locale.ROOT, "first %d s (load %s): %d ms windows after the first second in which no Shardline shard handled a "
                    + "record: %d while the control handled on at least half its shards (Shardline's own stalls), %d while the control "
                    + "stalled too (the machine or the JVM)%n", seconds, BenchStats.loadAverage(), WINDOW_MS, own, both);
            await(m.close());
            control.close();
            producer.close();
            controlProducer.close();
        }
    }

    /** The sorted latencies of the samples handled in {@code [from, to)} (nanoTime). */
    private static long[] latencies(LatencyRecorder.Samples s, long from, long to) {
        return java.util.stream.IntStream.range(0, s.sentAt().length)
                .filter(i -> s.sentAt()[i] + s.latency()[i] >= from && s.sentAt()[i] + s.latency()[i] < to)
                .mapToLong(i -> s.latency()[i]).sorted().toArray();
    }

    /** The distinct shards that handled a record in each {@link #WINDOW_MS} window of {@code [from, to)}. */
    private static int[] shardsPerWindow(LatencyRecorder.Samples s, long from, long to) {
        long window = WINDOW_MS * 1_000_000L;
        int windows = (int) ((to - from) / window);
        long[] seen = new long[windows];
        for (int i = 0; i < s.sentAt().length; i++) {
            long handled = s.sentAt()[i] + s.latency()[i];
            if (handled >= from && handled < to) {
                seen[(int) ((handled - from) / window)] |= 1L << s.shard()[i];
            }
        }
        return Arrays.stream(seen).mapToInt(Long::bitCount).toArray();
    }
}
