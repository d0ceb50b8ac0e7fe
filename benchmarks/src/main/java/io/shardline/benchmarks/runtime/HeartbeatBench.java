package io.shardline.benchmarks.runtime;

import io.shardline.testkit.net.FreePorts;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.runtime.cluster.ClusterSettings;
import io.shardline.runtime.cluster.WorkerCluster;
import io.shardline.runtime.coordinator.CoordinatorHostSettings;
import io.shardline.runtime.coordinator.CoordinatorVerticle;
import io.shardline.runtime.coordinator.CoordinatorWire;
import io.shardline.runtime.coordinator.LeaderRole;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.runtime.shard.RuntimeShardRedis;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.store.MetadataKeys;
import io.shardline.runtime.store.RecordCodec;
import io.shardline.runtime.store.RedisGroupLog;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Event-bus heartbeat throughput and latency: two clustered Vert.x nodes (Hazelcast on loopback) in one
 * JVM; node A hosts the real {@link CoordinatorVerticle} (leader epoch in Redis, records persisted),
 * node B runs {@code members} members that each keep one heartbeat in flight (steady state after they
 * joined). Prints heartbeats/s and p50/p99/max latency of the measured window.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar <hazelcast flags>
 * io.shardline.benchmarks.runtime.HeartbeatBench redis://127.0.0.1:6379 64 20}
 * (members, seconds). The baseline in the same run is a bare event-bus echo between the same nodes.
 */
public final class HeartbeatBench {

    private HeartbeatBench() {
    }

    public static void main(String[] args) throws Exception {
        String redisUrl = args.length > 0 ? args[0] : "redis://127.0.0.1:6379";
        int members = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        String cluster = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        List<Integer> ports = FreePorts.take(2);
        List<String> seeds = List.of("127.0.0.1:" + ports.get(0), "127.0.0.1:" + ports.get(1));
        WorkerCluster a = WorkerCluster.start(new ClusterSettings(cluster, "a", "127.0.0.1", ports.get(0), seeds,
                5_000, 5_000, Map.of()), 60_000);
        WorkerCluster b = WorkerCluster.start(new ClusterSettings(cluster, "b", "127.0.0.1", ports.get(1), seeds,
                5_000, 5_000, Map.of()), 60_000);
        try {
            RedisClient redis = RedisClient.connect(a.vertx(), RedisConfig.standalone(redisUrl), new SplittableRandom(1))
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            CoordinatorVerticle host = new CoordinatorVerticle(new CoordinatorHostSettings(cluster, "a", redis,
                    new RedisGroupLog(redis, new MetadataKeys(cluster)), new RecordCodec(),
                    new ShardCommands(new RuntimeShardRedis(redis)), AssignorRegistry::builtIn, CoordinatorMetrics.NOOP,
                    () -> System.nanoTime() / 1_000_000, 500, 1_000, 10_000));
            a.vertx().deployVerticle(host).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            a.onViewChange(host::onViewChange);
            long leaderDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (host.role().toCompletionStage().toCompletableFuture().get() != LeaderRole.LEADER) {
                if (System.nanoTime() > leaderDeadline) {
                    throw new IllegalStateException("the coordinator did not become leader within 60 s");
                }
                TimeUnit.MILLISECONDS.sleep(50);
            }
            String address = CoordinatorWire.address(cluster, "a");
            GroupConfig group = GroupConfig.of("bench", Map.of("bench", 256), "cooperative-sticky", 10_000, 1_000);
            b.vertx().eventBus().request(address, CoordinatorWire.toJson(group)).toCompletionStage()
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);

            b.vertx().eventBus().consumer("bench.echo." + cluster, m -> m.reply(m.body()));
            TimeUnit.SECONDS.sleep(1);
            Result echo = run(a.vertx(), "bench.echo." + cluster, members, 5, seconds / 2, (id, prev) ->
                    new JsonObject().put("op", "echo").put("id", id));
            Result heartbeats = run(b.vertx(), address, members, 5, seconds, HeartbeatBench::next);
            System.out.println("baseline event-bus echo: " + echo);
            System.out.println("heartbeats (steady state, " + members + " members in flight): " + heartbeats);
        } finally {
            b.stop(10_000);
            a.stop(10_000);
        }
    }

    /** The next heartbeat of member {@code id} given its previous answer (null before joining). */
    private static JsonObject next(int id, JsonObject previous) {
        HeartbeatResponse r = previous == null ? null : CoordinatorWire.heartbeatResponse(previous);
        boolean ok = r != null && r.error() == ErrorCode.NONE;
        TreeSet<ShardId> owned = ok ? new TreeSet<>(r.assigned().keySet()) : new TreeSet<>();
        return CoordinatorWire.toJson(new HeartbeatRequest("bench", "m" + id, ok ? r.memberEpoch() : 0,
                Optional.empty(), Optional.empty(), new TreeSet<>(List.of("bench")), owned, List.of(),
                ok ? r.assignmentEpoch() : 0));
    }

    /** Latency figures. */
    record Result(long count, double seconds, double p50Ms, double p99Ms, double maxMs) {
        @Override
        public String toString() {
            return String.format("%.0f/s (n=%d in %.1f s), p50 %.2f ms, p99 %.2f ms, max %.2f ms",
                    count / seconds, count, seconds, p50Ms, p99Ms, maxMs);
        }
    }

    interface Next {
        JsonObject build(int id, JsonObject previous);
    }

    private static Result run(Vertx vertx, String address, int loops, int warmupSeconds, int seconds, Next next)
            throws InterruptedException {
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        long[] latencies = new long[50_000_000 / 16];
        AtomicLong count = new AtomicLong();
        CountDownLatch done = new CountDownLatch(loops);
        DeliveryOptions options = new DeliveryOptions().setSendTimeout(5_000);
        for (int i = 0; i < loops; i++) {
            int id = i;
            vertx.runOnContext(v -> loop(vertx, address, id, null, next, options, measuring, stop, latencies, count, done));
        }
        TimeUnit.SECONDS.sleep(warmupSeconds);
        measuring.set(true);
        long start = System.nanoTime();
        TimeUnit.SECONDS.sleep(seconds);
        measuring.set(false);
        double elapsed = (System.nanoTime() - start) / 1e9;
        stop.set(true);
        done.await(10, TimeUnit.SECONDS);
        int n = (int) Math.min(count.get(), latencies.length);
        long[] sorted = Arrays.copyOf(latencies, n);
        Arrays.sort(sorted);
        return new Result(count.get(), elapsed, sorted[n / 2] / 1e6, sorted[(int) (n * 0.99)] / 1e6,
                sorted[n - 1] / 1e6);
    }

    private static void loop(Vertx vertx, String address, int id, JsonObject previous, Next next, DeliveryOptions options,
                             AtomicBoolean measuring, AtomicBoolean stop, long[] latencies, AtomicLong count,
                             CountDownLatch done) {
        if (stop.get()) {
            done.countDown();
            return;
        }
        long sent = System.nanoTime();
        vertx.eventBus().<JsonObject>request(address, next.build(id, previous), options).onComplete(ar -> {
            if (measuring.get() && ar.succeeded()) {
                long i = count.getAndIncrement();
                if (i < latencies.length) {
                    latencies[(int) i] = System.nanoTime() - sent;
                }
            }
            loop(vertx, address, id, ar.succeeded() ? ar.result().body() : previous, next, options, measuring, stop,
                    latencies, count, done);
        });
    }

}
