package io.shardline.benchmarks.consumption;

import static io.shardline.benchmarks.consumption.BenchRedis.await;
import static io.shardline.benchmarks.consumption.BenchRedis.shards;
import static io.shardline.benchmarks.consumption.BenchRedis.waitUntil;

import io.shardline.api.handler.ShardId;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Shardline beside what users pick instead of it, measured the same way in the same run on one redis-server and 16
 * shards (docs/benchmarks.md, "Peers"): {@code shardline} ({@link ShardlinePeer}), a hand-written Lettuce loop
 * ({@link LettuceLoopPeer}), Spring Data Redis's listener container ({@link SpringContainerPeer}) and the hand-written
 * Vert.x blocking loop ({@link VertxBlockLoopPeer}, the client Shardline uses). Every peer reads with a consumer group
 * of its own and acknowledges every record after handling it. Modes:
 * <ul>
 *   <li>{@code drain}: 16 × {@code bench.peers.perShard} (default 62,500: 1,000,000 records) prefilled; each peer
 *       drains them in turn, the order rotating per round, on a fresh redis-server per round; one warm-up round,
 *       then {@code bench.peers.rounds} (default 3); the rate of record is the median;</li>
 *   <li>{@code latency}: at 5,000 and 10,000 records/s (round robin over the shards, XADD time in the record), each
 *       peer in turn: 5 s warm-up, then {@code bench.peers.latency.seconds} (default 15) measured; p50/p99/p99.9/max
 *       and the ratio to the Vert.x blocking loop;</li>
 *   <li>{@code errors}: what each does when the handler throws on one record of shard 0 (100 records on each of 2
 *       shards): how many of the records of shard 0 after the failing one were handled (within up to 10 s), and what
 *       happened to the failing one.</li>
 * </ul>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar io.shardline.benchmarks.consumption.ConsumptionBench peers
 * [drain|latency|errors|all]}.
 */
final class PeersBench {

    private static final int SHARDS = 16;
    private static final int ERROR_RECORDS = 100;
    private static final int POISON_AT = 10;
    private static final List<String> PEERS = List.of("shardline", "lettuce-loop", "spring-container", "vertx-block-loop");

    private PeersBench() {
    }

    static void run(String mode) {
        switch (mode) {
            case "drain" -> drain();
            case "latency" -> latency();
            case "errors" -> errors();
            case "all" -> {
                drain();
                latency();
                errors();
            }
            default -> throw new IllegalArgumentException("peers: drain, latency, errors or all, got " + mode);
        }
    }

    private static Peer peer(String name, BenchRedis b) {
        return switch (name) {
            case "shardline" -> new ShardlinePeer(b, 3);
            case "lettuce-loop" -> new LettuceLoopPeer(b.server.uri());
            case "spring-container" -> new SpringContainerPeer(b.server.uri());
            case "vertx-block-loop" -> new VertxBlockLoopPeer(b);
            default -> throw new IllegalArgumentException(name);
        };
    }

    private static void drain() {
        int perShard = Integer.getInteger("bench.peers.perShard", 62_500);
        int rounds = Integer.getInteger("bench.peers.rounds", 3);
        long total = (long) SHARDS * perShard;
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        PEERS.forEach(p -> rates.put(p, new ArrayList<>()));
        for (int round = 0; round <= rounds; round++) {
            try (BenchRedis b = new BenchRedis()) {
                List<ShardId> shards = shards("peers", SHARDS);
                b.fillAll(shards, perShard);
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "peers drain round %d%s (load %s):",
                        round, round == 0 ? " (warm-up)" : "", BenchStats.loadAverage()));
                for (int k = 0; k < PEERS.size(); k++) {
                    String name = PEERS.get((k + round) % PEERS.size());
                    b.group(shards, name, "m", 1);
                    AtomicLong seen = new AtomicLong();
                    long start = System.nanoTime();
                    try (Peer p = peer(name, b)) {
                        p.start(shards, name, (s, t) -> seen.incrementAndGet());
                        waitUntil(600_000, () -> seen.get() >= total && pendingOf(b, shards, name) == 0);
                    }
                    double rate = total / ((System.nanoTime() - start) / 1e9);
                    line.append(String.format(Locale.ROOT, " %s %.0f rec/s;", name, rate));
                    if (round > 0) {
                        rates.get(name).add(rate);
                    }
                }
                System.out.println(line);
            }
        }
        double lettuce = BenchStats.median(rates.get("lettuce-loop"));
        StringBuilder result = new StringBuilder(String.format(Locale.ROOT,
                "peers drain of %d records, median of %d rounds (load %s):", total, rounds, BenchStats.loadAverage()));
        rates.forEach((name, r) -> result.append(String.format(Locale.ROOT, " %s %.0f rec/s (%.2fx the Lettuce loop);",
                name, BenchStats.median(r), BenchStats.median(r) / lettuce)));
        System.out.println(result);
    }

    /** Entries delivered to {@code group} and not yet acknowledged, over all shards. */
    private static long pendingOf(BenchRedis b, List<ShardId> shards, String group) {
        long pending = 0;
        for (ShardId s : shards) {
            pending += await(b.redis.send(Request.cmd(Command.XPENDING).arg(s.key()).arg(group))).get(0).toLong();
        }
        return pending;
    }

    private static void latency() {
        long measuredMs = Long.getLong("bench.peers.latency.seconds", 15) * 1_000;
        for (int rate : new int[] {5_000, 10_000}) {
            Map<String, long[]> results = new LinkedHashMap<>();
            try (BenchRedis b = new BenchRedis()) {
                List<ShardId> shards = shards("lat", SHARDS);
                for (String name : PEERS) {
                    for (ShardId s : shards) {
                        await(b.commands.ensureGroup(s, name, "$"));
                        await(b.commands.setOwner(s, name, "m", 1));
                    }
                    LatencyRecorder recorder = new LatencyRecorder((int) (measuredMs * rate / 1000 * 2), s -> true);
                    SteadyProducer producer = new SteadyProducer(b, shards, rate);
                    try (Peer p = peer(name, b)) {
                        p.start(shards, name, recorder::record);
                        producer.run(5_000); // warm-up
                        recorder.reset();
                        producer.run(measuredMs);
                        waitUntil(60_000, () -> recorder.count() >= producer.sentSinceReset());
                    }
                    results.put(name, recorder.latencies());
                    System.out.printf(Locale.ROOT, "peers latency at %d rec/s, %s (load %s): %s%n", rate, name,
                            BenchStats.loadAverage(), BenchStats.summary(results.get(name)));
                }
            }
            long[] base = results.get("vertx-block-loop");
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                    "peers latency at %d rec/s, ratio to the Vert.x blocking loop (p99 / p99.9):", rate));
            results.forEach((name, l) -> line.append(String.format(Locale.ROOT, " %s %.2f / %.2f;", name,
                    BenchStats.quantileMs(l, 0.99) / BenchStats.quantileMs(base, 0.99),
                    BenchStats.quantileMs(l, 0.999) / BenchStats.quantileMs(base, 0.999))));
            System.out.println(line + " target for shardline <= 2.00 / 2.00");
        }
    }

    private static void errors() {
        for (String name : List.of(System.getProperty("bench.peers.errorPeers", "shardline,spring-container,lettuce-loop").split(","))) {
            try (BenchRedis b = new BenchRedis()) {
                List<ShardId> shards = shards("err", 2);
                b.group(shards, name, "m", 1);
                Set<String> after = ConcurrentHashMap.newKeySet();
                Set<String> healthy = ConcurrentHashMap.newKeySet();
                AtomicLong calls = new AtomicLong();
                Peer.Sink sink = (s, t) -> {
                    if (s.index() == 0 && "poison".equals(t)) {
                        calls.incrementAndGet();
                        throw new IllegalStateException("handler failed on the poison record");
                    }
                    if (s.index() == 0 && Integer.parseInt(t) > POISON_AT) {
                        after.add(t);
                    } else if (s.index() == 1) {
                        healthy.add(t);
                    }
                };
                for (ShardId s : shards) {
                    for (int i = 0; i < ERROR_RECORDS; i++) {
                        await(b.redis.send(Request.cmd(Command.XADD).arg(s.key()).arg("*").arg("t")
                                .arg(s.index() == 0 && i == POISON_AT ? "poison" : Integer.toString(i))));
                    }
                }
                int expected = ERROR_RECORDS - POISON_AT - 1;
                String what;
                try (Peer p = peer(name, b)) {
                    p.start(shards, name, sink);
                    // running once it handled the healthy shard; then the observation window: until every record after
                    // the failing one was handled, at most 10 s
                    waitUntil(120_000, () -> healthy.size() == ERROR_RECORDS);
                    long end = System.nanoTime() + 10_000_000_000L;
                    while (after.size() < expected && System.nanoTime() < end) {
                        pause(20);
                    }
                    if (p instanceof SpringContainerPeer spring) {
                        what = spring.errors() + " error(s) reported to its error handler, "
                                + spring.activeSubscriptions() + " of 2 subscriptions still active";
                    } else if (p instanceof ShardlinePeer) {
                        waitUntil(30_000, () -> await(b.redis.send(Request.cmd(Command.XLEN).arg(name + ".dlq"))).toLong() > 0);
                        what = "the failing record is in dead-letter stream " + name + ".dlq";
                    } else {
                        what = "the loop thread of shard 0 died with the exception; pending on shard 0: "
                                + pendingOf(b, shards.subList(0, 1), name);
                    }
                }
                System.out.printf(Locale.ROOT, "peers errors, %s: the handler was called %d time(s) on the failing "
                        + "record; %d of the %d records after it on shard 0 were handled (window up to 10 s); %s%n",
                        name, calls.get(), after.size(), expected, what);
            }
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms); // a fixed observation window, not a condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
