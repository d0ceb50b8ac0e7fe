package io.shardline.benchmarks.runtime;

import com.sun.net.httpserver.HttpServer;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The first minute of a worker from the built distribution under a steady load (docs/benchmarks.md, "The first
 * minute of a worker"): one worker started with {@code bin/start-worker} and the default timeouts, a
 * {@code webhook-sink} listener over 16 shards posting to this JVM, and a producer in this JVM writing
 * {@code RATE} records a second round-robin over the shards from the moment the worker owns its first shard, each
 * record carrying the time it was written (microseconds). Per second after the worker's joined line: the records
 * handled, their latency (arrival at this JVM minus write: the webhook's round trip included) at p50, p99 and max, and
 * the <em>stalls</em>: 50 ms windows in which records were written in the window and in the one before, yet none
 * arrived. A stall of every shard at once while nothing changes in the group shows there; one of the producer shows as
 * a window without writes (not counted).
 *
 * <p>Run after {@code mvn -B -ntp -DskipTests package -pl benchmarks,dist -am} (and {@code bin/shardline-cds}):
 * {@code java -cp benchmarks/target/benchmarks.jar io.shardline.benchmarks.runtime.FirstMinuteBench
 * dist/target/shardline-0.1.0-SNAPSHOT [RATE=5000] [SECONDS=40]}. It starts its own {@code redis-server}; every
 * process it starts is stopped by its pid. Wall-clock figures: it prints the load average before and after.
 */
public final class FirstMinuteBench {

    private static final int SHARDS = 16;
    private static final long TIMEOUT_MS = 120_000;
    private static final long WINDOW_US = 50_000;

    /** Arrivals: {write time, arrival time} in epoch microseconds. */
    private final ConcurrentLinkedQueue<long[]> arrivals = new ConcurrentLinkedQueue<>();
    /** Write times of the producer's records, epoch microseconds. */
    private final ConcurrentLinkedQueue<Long> writes = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean producing = new AtomicBoolean(true);

    private FirstMinuteBench() {
    }

    public static void main(String[] args) throws Exception {
        Path dist = DistWorkers.distOrExit(args, 1, "FirstMinuteBench DIST_DIR [RATE=5000] [SECONDS=40]");
        int rate = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        new FirstMinuteBench().run(dist, rate, seconds);
        System.exit(0);
    }

    private void run(Path dist, int rate, int seconds) throws Exception {
        System.out.printf("load average before: %s%n", DistWorkers.loadAverage());
        HttpServer sink = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        sink.createContext("/first", exchange -> {
            long now = micros();
            JsonArray records = new JsonArray(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            for (int i = 0; i < records.size(); i++) {
                JsonObject r = records.getJsonObject(i);
                arrivals.add(new long[] {Long.parseLong(r.getJsonObject("fields").getString("t")), now});
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        sink.setExecutor(Executors.newFixedThreadPool(8));
        sink.start();
        Path work = DistWorkers.workWithListener("first-minute", "first", "handler=webhook-sink",
                "handler.config.url=http://127.0.0.1:" + sink.getAddress().getPort() + "/first",
                "streams=first:" + SHARDS, "group=first", "start.from=earliest");
        Thread producer = null;
        try (RedisServer redis = RedisServer.start(false); DistWorkers workers = new DistWorkers(dist, work, 1)) {
            workers.start(0, redis.uri());
            workers.awaitLine(0, "(owner epoch ", TIMEOUT_MS);
            producer = new Thread(() -> produce(redis, rate), "first-minute-producer");
            producer.start();
            String joined = workers.awaitLine(0, "joined cluster", TIMEOUT_MS);
            long joinedUs = micros();
            TimeUnit.SECONDS.sleep(seconds); // the measured run: records flow meanwhile
            producing.set(false);
            producer.join(10_000);
            report(joinedUs, seconds, rate, joined);
        } finally {
            producing.set(false);
            sink.stop(0);
            System.out.printf("load average after: %s%n", DistWorkers.loadAverage());
        }
    }

    /** {@code rate} records a second, one shard after the other, a write every 2 ms, until told to stop. */
    private void produce(RedisServer redis, int rate) {
        int perWrite = Math.max(1, rate / 500);
        try (RespProbe probe = redis.probe()) {
            long next = System.nanoTime();
            for (long n = 0; producing.get(); ) {
                for (int i = 0; i < perWrite; i++, n++) {
                    long t = micros();
                    probe.call("XADD", "{first:" + (n % SHARDS) + "}", "*", "t", Long.toString(t));
                    writes.add(t);
                }
                next += TimeUnit.MILLISECONDS.toNanos(2);
                TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime())); // the steady rate
            }
        } catch (IOException e) {
            System.err.println("producer failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void report(long joinedUs, int seconds, int rate, String joined) {
        System.out.printf("%d records/s over %d shards; seconds counted from the worker's joined line: %s%n", rate,
                SHARDS, joined);
        System.out.println("| second | records | p50 ms | p99 ms | max ms | stalls (50 ms windows, none arrived) |");
        System.out.println("| ---: | ---: | ---: | ---: | ---: | ---: |");
        List<long[]> all = new ArrayList<>(arrivals);
        long[] arrived = all.stream().mapToLong(a -> a[1]).sorted().toArray();
        long[] written = writes.stream().mapToLong(Long::longValue).sorted().toArray();
        int totalStalls = 0;
        for (int s = 0; s < seconds; s++) {
            long from = joinedUs + s * 1_000_000L;
            long to = from + 1_000_000L;
            long[] latencies = all.stream().filter(a -> a[1] >= from && a[1] < to).mapToLong(a -> a[1] - a[0]).sorted()
                    .toArray();
            int stalls = 0;
            for (long w = from; w < to; w += WINDOW_US) {
                if (count(written, w - WINDOW_US, w) > 0 && count(written, w, w + WINDOW_US) > 0
                        && count(arrived, w, w + WINDOW_US) == 0) {
                    stalls++;
                }
            }
            totalStalls += stalls;
            System.out.printf("| %d | %d | %.2f | %.2f | %.2f | %d |%n", s, latencies.length, pct(latencies, 0.50),
                    pct(latencies, 0.99), latencies.length == 0 ? 0.0 : latencies[latencies.length - 1] / 1000.0,
                    stalls);
        }
        System.out.printf("FIGURE first_minute_stalls=%d (50 ms windows in %d s after the join with records written"
                + " and none handled)%n", totalStalls, seconds);
    }

    private static int count(long[] sorted, long from, long to) {
        return lowerBound(sorted, to) - lowerBound(sorted, from);
    }

    private static int lowerBound(long[] sorted, long value) {
        int i = Arrays.binarySearch(sorted, value);
        if (i < 0) {
            return -i - 1;
        }
        while (i > 0 && sorted[i - 1] == value) {
            i--;
        }
        return i;
    }

    private static double pct(long[] sortedUs, double q) {
        if (sortedUs.length == 0) {
            return 0;
        }
        return sortedUs[Math.min(sortedUs.length - 1, (int) Math.ceil(q * sortedUs.length) - 1)] / 1000.0;
    }

    private static long micros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }
}
