package io.shardline.benchmarks.reshard;

import com.sun.net.httpserver.HttpServer;
import io.shardline.producer.ShardProducer;
import io.shardline.producer.routing.ShardRouting;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Redis;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Live resharding against its targets (docs/benchmarks.md "Resharding") on worker processes of the built
 * distribution: two listeners ({@code webhook-sink} posting to this JVM, which notes when each record was handled),
 * one on stream {@code bench} written by a {@link ShardProducer} at a steady rate over a key space (each record
 * carries the time it was written), one on the idle stream {@code idle}. Then: {@code bench} from 16 to 32 shards
 * under load ({@code POST /streams/bench/reshard}; {@link ReshardFigures}), the producer's refusals
 * ({@code STALE_ROUTING}) in that change, and {@code idle} from 16 to 32: from every old shard flipped (nothing to
 * acknowledge: each group is at its cutover) to {@code STABLE}, against two heartbeat intervals.
 *
 * <p>Run (a redis-server must be listening): {@code java -cp benchmarks/target/benchmarks.jar
 * io.shardline.benchmarks.reshard.ReshardBench dist/target/shardline-0.1.0-SNAPSHOT redis://127.0.0.1:6390}
 * [workers=2] [rate=2000] [keys=10000] [assignor, the listener's default when absent: {@code range}, which moves old
 * shards between members when the count changes; {@code sticky} keeps them]. Wall-clock figures: it prints the load
 * average before and after.
 */
public final class ReshardBench {

    private static final int FROM = 16;
    private static final int TO = 32;
    private static final int HEARTBEAT_MS = 500;
    private static final long STEADY_MS = 15_000;

    private final Map<String, ReshardFigures.Handled> handled = new ConcurrentHashMap<>();
    private final AtomicLong produced = new AtomicLong();
    private volatile boolean producing = true;

    private ReshardBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: ReshardBench DIST_DIR REDIS_URL [WORKERS=2] [RATE=2000] [KEYS=10000] [ASSIGNOR]");
            System.exit(2);
        }
        new ReshardBench().run(Path.of(args[0]).toAbsolutePath(), args[1],
                args.length > 2 ? Integer.parseInt(args[2]) : 2, args.length > 3 ? Integer.parseInt(args[3]) : 2_000,
                args.length > 4 ? Integer.parseInt(args[4]) : 10_000, args.length > 5 ? args[5] : null);
        System.exit(0);
    }

    private void run(Path dist, String redisUrl, int workers, int rate, int keys, String assignor) throws Exception {
        URI redis = URI.create(redisUrl);
        Path work = Files.createTempDirectory("reshard-bench");
        HttpServer sink = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        sink.createContext("/bench", exchange -> {
            long now = System.currentTimeMillis();
            JsonArray records = new JsonArray(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            for (int i = 0; i < records.size(); i++) {
                JsonObject r = records.getJsonObject(i);
                handled.putIfAbsent(r.getInteger("shard") + "/" + r.getString("id"), new ReshardFigures.Handled(
                        r.getString("key"), r.getInteger("shard"), r.getString("id"),
                        Long.parseLong(r.getJsonObject("fields").getString("t")), now));
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        sink.setExecutor(Executors.newFixedThreadPool(8));
        sink.start();
        Path listeners = Files.createDirectories(work.resolve("listeners"));
        for (String stream : List.of("bench", "idle")) {
            Files.writeString(listeners.resolve(stream + ".properties"), String.join("\n", "handler=webhook-sink",
                    "handler.config.url=http://127.0.0.1:" + sink.getAddress().getPort() + "/" + stream,
                    "streams=" + stream + ":" + FROM, "group=" + stream, "start.from=earliest",
                    assignor == null ? "" : "assignor=" + assignor, ""));
        }
        System.out.println("load average before: " + loadAverage() + "; output in " + work);
        Vertx vertx = Vertx.vertx();
        try (BenchFleet fleet = new BenchFleet(dist, work, listeners, redisUrl, workers, HEARTBEAT_MS);
             RespProbe probe = RespProbe.connect(redis.getHost(), redis.getPort(), 5_000)) {
            ShardProducer producer = new ShardProducer(Redis.createClient(vertx, redisUrl), "bench");
            Thread writer = producer(producer, rate, keys);
            await(() -> handled.size() > 2L * rate, 120_000, "records handled before the change");
            TimeUnit.MILLISECONDS.sleep(STEADY_MS); // the "before" window of the unchanged keys' latency
            long refusedBefore = producer.refusals();
            long releasedBefore = fleet.releases("bench", FROM);
            long requested = System.currentTimeMillis();
            reshard(fleet, "bench");
            RoutingWatch routing = new RoutingWatch("bench", "bench", TO);
            long stable = watch(probe, "bench", routing);
            long moved = fleet.releases("bench", FROM) - releasedBefore;
            TimeUnit.MILLISECONDS.sleep(5_000); // records written after the change still arrive
            long refusals = producer.refusals() - refusedBefore;
            producing = false;
            writer.join(30_000);
            await(() -> handled.size() >= produced.get(), 120_000, "every record handled");
            System.out.printf("FIGURE reshard_change_ms=%d (16 -> 32 under %d records/s over %d keys, %d records)%n",
                    stable - requested, rate, keys, produced.get());
            ReshardFigures.print(handled.values(), FROM, TO, requested, stable, routing, HEARTBEAT_MS, STEADY_MS);
            System.out.printf("FIGURE reshard_producer_refusals=%d (one producer, one change; target <= 1)%n", refusals);
            System.out.printf("FIGURE reshard_old_shards_moved=%d (old shards a member gave up during the change: the"
                    + " assignor's moves, %s)%n", moved, assignor == null ? "range" : assignor);

            long idleRequested = System.currentTimeMillis();
            reshard(fleet, "idle");
            long flipped = awaitFlipped(probe, "idle");
            long idleStable = watch(probe, "idle", new RoutingWatch("idle", "idle", TO));
            System.out.printf("FIGURE reshard_idle_ack_to_stable_ms=%d (request to STABLE %d ms; target <= 2 heartbeat"
                    + " intervals = %d ms)%n", idleStable - flipped, idleStable - idleRequested, 2 * HEARTBEAT_MS);
        } finally {
            producing = false;
            sink.stop(0);
            vertx.close();
            System.out.println("load average after: " + loadAverage());
        }
    }

    private Thread producer(ShardProducer producer, int rate, int keys) {
        Thread t = new Thread(() -> {
            Random random = new Random(19);
            int batch = Math.max(1, rate / 50);
            long next = System.nanoTime();
            while (producing) {
                List<ShardProducer.Record> records = new ArrayList<>(batch);
                String now = Long.toString(System.currentTimeMillis());
                for (int i = 0; i < batch; i++) {
                    records.add(new ShardProducer.Record("key-" + random.nextInt(keys), Map.of("t", now)));
                }
                try {
                    producer.sendAll(records).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
                    produced.addAndGet(batch);
                    next += TimeUnit.MILLISECONDS.toNanos(20);
                    TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime())); // the steady rate
                } catch (Exception e) {
                    System.err.println("producer: " + e);
                    return;
                }
            }
        }, "reshard-bench-producer");
        t.start();
        return t;
    }

    private static void reshard(BenchFleet fleet, String stream) throws IOException, InterruptedException {
        HttpResponse<String> reply = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                        "http://127.0.0.1:" + fleet.restPort() + "/streams/" + stream + "/reshard"))
                .header("Authorization", "Bearer " + BenchFleet.TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"shards\": " + TO + "}")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (reply.statusCode() != 202) {
            throw new IllegalStateException("reshard of " + stream + " refused: " + reply.statusCode() + " " + reply.body());
        }
    }

    /** Polls every 10 ms until {@code stream} is STABLE again, noting its routing hashes; returns when. */
    private static long watch(RespProbe probe, String stream, RoutingWatch routing)
            throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + 300_000;
        while (System.currentTimeMillis() < deadline) {
            routing.poll(probe);
            if ("STABLE".equals(probe.call("HGET", "{" + stream + ":topology}", "state"))) {
                return System.currentTimeMillis();
            }
            TimeUnit.MILLISECONDS.sleep(10); // the poll of the topology
        }
        throw new IllegalStateException("stream " + stream + " not STABLE within 300 s");
    }

    /** Polls every 5 ms until every old shard of {@code stream} is flipped to epoch 2; returns when. */
    private static long awaitFlipped(RespProbe probe, String stream) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            boolean all = true;
            for (int i = 0; i < FROM && all; i++) {
                all = "2".equals(probe.call("HGET", ShardRouting.routingKey(stream, i), "epoch"));
            }
            if (all) {
                return System.currentTimeMillis();
            }
            TimeUnit.MILLISECONDS.sleep(5); // the poll of the routing hashes
        }
        throw new IllegalStateException("stream " + stream + " not flipped within 60 s");
    }

    private static void await(java.util.function.BooleanSupplier condition, long timeoutMs, String what)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(what + ": not within " + timeoutMs + " ms");
            }
            TimeUnit.MILLISECONDS.sleep(100); // the poll of the condition
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
