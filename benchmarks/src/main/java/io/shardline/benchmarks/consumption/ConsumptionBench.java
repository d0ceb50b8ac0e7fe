package io.shardline.benchmarks.consumption;

/**
 * The consumption benchmarks of docs/benchmarks.md ("## Consumption"), each with its baseline in the same run against
 * the same redis-server (started by the harness); every figure is printed with the 1-minute load average:
 * <ol>
 *   <li>{@code throughput} ({@link ThroughputBench}): a no-op handler, one member, 16 shards, vs a bare
 *       XREADGROUP+XACK loop per shard written with the same Vert.x Redis client (same batch size, same pool, same
 *       number of concurrent loops);</li>
 *   <li>{@code latency} ({@link LatencyBench}): end-to-end latency (XADD issued to handler called) at steady 5,000 and
 *       10,000 records/s over 16 shards, beside a hand-written XREADGROUP BLOCK + XACK loop in the same run;</li>
 *   <li>{@code latency-start} ({@link StartLatencyBench}): latency per second over a member's first minute;</li>
 *   <li>{@code fairness} ({@link FairnessBench}): 64 shards over 4 local workers at a steady rate; p99 latency of the
 *       other shards in windows with and without a backlog of at least 100,000 records on shard 0, interleaved.</li>
 *   <li>{@code peers} ({@link PeersBench}): Shardline beside a Lettuce loop, Spring Data Redis's listener container
 *       and a hand-written Vert.x blocking loop: drain rate, latency at 5,000 and 10,000 records/s, handler errors.</li>
 * </ol>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar io.shardline.benchmarks.consumption.ConsumptionBench
 * [all|throughput|latency|latency-start|fairness|peers [drain|latency|errors]|side bare|transaction|script [rounds]]}.
 */
public final class ConsumptionBench {

    private ConsumptionBench() {
    }

    public static void main(String[] args) {
        String which = args.length > 0 ? args[0] : "all";
        switch (which) {
            case "all" -> {
                ThroughputBench.run();
                LatencyBench.run();
                FairnessBench.run();
            }
            case "throughput" -> ThroughputBench.run();
            case "latency" -> LatencyBench.run();
            case "latency-start" -> StartLatencyBench.run();
            case "fairness" -> FairnessBench.run();
            case "status-burst" -> StatusBurstBench.run();
            case "peers" -> PeersBench.run(args.length > 1 ? args[1] : "all");
            case "side" -> ThroughputBench.side(args.length > 1 ? args[1] : "transaction", args.length > 2 ? Integer.parseInt(args[2]) : 10);
            default -> {
                System.err.println("ConsumptionBench: unknown benchmark '" + which
                        + "'; use all, throughput, latency, latency-start, fairness, status-burst, peers [drain|latency|errors|all] or side bare|transaction|script [rounds]");
                System.exit(2);
            }
        }
    }
}
