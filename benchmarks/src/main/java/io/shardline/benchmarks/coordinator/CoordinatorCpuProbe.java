package io.shardline.benchmarks.coordinator;

import io.shardline.coordinator.CoordinatorResult;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.record.CoordinatorRecord;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The same two measurements as {@link HeartbeatBenchmark} and {@link RebalanceBenchmark}, timed by the calling
 * thread's CPU time instead of the wall clock: on a shared, oversubscribed machine the wall clock measures the
 * other tenants, the thread CPU time still measures the coordinator. Complements JMH, does not replace it.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar io.shardline.benchmarks.coordinator.CoordinatorCpuProbe}
 */
public final class CoordinatorCpuProbe {

    private CoordinatorCpuProbe() {
    }

    /** Prints heartbeats per CPU second (1,000 × 1,024) and the CPU cost of one join (10,000 × 100,000). */
    public static void main(String[] args) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        GroupCoordinator steady = StableGroups.coordinator(StableGroups.records(1000, 1024, "range"));
        HeartbeatRequest[] requests = StableGroups.steadyRequests(steady);
        for (int round = 0; round < 5; round++) {
            steady.activate(0, 0);
            int n = 2_000_000;
            long errors = 0;
            long start = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                CoordinatorResult<HeartbeatResponse> r = steady.heartbeat(i >> 10, requests[i % requests.length]);
                errors += r.response().error() == ErrorCode.NONE ? 0 : 1;
            }
            double seconds = (mx.getCurrentThreadCpuTime() - start) / 1e9;
            System.out.printf("steady heartbeats, 1000 members x 1024 shards, round %d: %,.0f per CPU second"
                    + " (%d errors)%n", round, n / seconds, errors);
        }
        for (String assignor : List.of("range", "round-robin")) {
            List<CoordinatorRecord> records = StableGroups.records(10_000, 100_000, assignor);
            HeartbeatRequest join = new HeartbeatRequest(StableGroups.GROUP, "member-new", 0, Optional.empty(),
                    Optional.empty(), new TreeSet<>(List.of(StableGroups.STREAM)), new TreeSet<>(), List.of(), 0);
            for (int round = 0; round < 5; round++) {
                GroupCoordinator c = StableGroups.coordinator(records);
                long start = mx.getCurrentThreadCpuTime();
                CoordinatorResult<HeartbeatResponse> r = c.heartbeat(1, join);
                double ms = (mx.getCurrentThreadCpuTime() - start) / 1e6;
                System.out.printf("join rebalance, 10000 members x 100000 shards, %s, round %d: %.1f CPU ms, %d records,"
                        + " %s%n", assignor, round, ms, r.records().size(), r.response().error());
            }
        }
    }
}
