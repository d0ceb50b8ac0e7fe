package io.shardline.benchmarks.coordinator;

import io.shardline.coordinator.CoordinatorResult;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import java.util.HashMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Steady heartbeats per second the pure coordinator handles on one thread: a stable group of 1,000 members over
 * 1,024 shards, each heartbeat under the member's current epoch reporting exactly its assignment (validation,
 * lease renewal, reconciliation fast path, cached answer). Target: at least 100,000/s.
 *
 * <p>Baseline in the same run: {@link #baselineLeaseMap}, the floor any coordinator pays (find the member, renew
 * its lease in a hash map).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HeartbeatBenchmark {

    @Param({"1000"})
    int members;

    @Param({"1024"})
    int shards;

    @Param({"range"})
    String assignor;

    private GroupCoordinator coordinator;
    private HeartbeatRequest[] requests;
    private final HashMap<String, Long> leases = new HashMap<>();
    private int next;
    private long now;

    @Setup(Level.Trial)
    public void setUp() {
        coordinator = StableGroups.coordinator(StableGroups.records(members, shards, assignor));
        requests = StableGroups.steadyRequests(coordinator);
        HeartbeatResponse check = coordinator.heartbeat(0, requests[0]).response();
        if (check.error() != ErrorCode.NONE) {
            throw new IllegalStateException("steady heartbeat refused: " + check);
        }
    }

    @Setup(Level.Iteration)
    public void resetClock() {
        // Re-activate so no lease runs out however many seconds an iteration lasts; time still moves per call.
        now = 0;
        coordinator.activate(0, 0);
    }

    @Benchmark
    public CoordinatorResult<HeartbeatResponse> steadyHeartbeat() {
        HeartbeatRequest request = requests[next];
        next = next + 1 == requests.length ? 0 : next + 1;
        return coordinator.heartbeat(now++ >> 10, request);
    }

    @Benchmark
    public Long baselineLeaseMap() {
        HeartbeatRequest request = requests[next];
        next = next + 1 == requests.length ? 0 : next + 1;
        return leases.put(request.memberId(), now++ + 45_000);
    }
}
