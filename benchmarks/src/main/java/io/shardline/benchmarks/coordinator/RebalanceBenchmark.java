package io.shardline.benchmarks.coordinator;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.StreamDescription;
import io.shardline.coordinator.CoordinatorResult;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.record.CoordinatorRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
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
 * The cost of one rebalance: a member joins a stable group of 10,000 members over 100,000 shards. The join
 * bumps the group epoch, runs the assignor over all 10,001 members, writes the target records of every member
 * whose target changed, moves the shards that leave each member to revoking, and answers the new member (which
 * gets only free shards: none, here). Target: well under a second.
 *
 * <p>Baseline in the same run: {@link #baselineAssignorOnly}, the group's assignor alone on the same input.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(value = 1, jvmArgsAppend = {"-Xmx3g"})
public class RebalanceBenchmark {

    @Param({"10000"})
    int members;

    @Param({"100000"})
    int shards;

    @Param({"range", "round-robin"})
    String assignor;

    private List<CoordinatorRecord> records;
    private GroupCoordinator coordinator;
    private HeartbeatRequest join;
    private GroupSpec spec;
    private ShardDescriber describer;
    private Assignor assignorInstance;

    @Setup(Level.Trial)
    public void setUp() {
        records = StableGroups.records(members, shards, assignor);
        join = new HeartbeatRequest(StableGroups.GROUP, "member-new", 0, Optional.empty(), Optional.empty(),
                new TreeSet<>(List.of(StableGroups.STREAM)), new TreeSet<>(), List.of(), 0);
        List<MemberSubscription> subs = new ArrayList<>();
        for (int i = 0; i <= members; i++) {
            subs.add(MemberSubscription.of(i == members ? "member-new" : StableGroups.memberId(i),
                    List.of(StableGroups.STREAM)));
        }
        spec = new GroupSpec(subs);
        describer = ShardDescriber.of(StreamDescription.of(StableGroups.STREAM, shards));
        assignorInstance = AssignorRegistry.builtIn(assignor);
    }

    @Setup(Level.Iteration)
    public void freshGroup() {
        coordinator = StableGroups.coordinator(records);
        // A long-running leader's group state is old-generation: do not charge the join for first copying the
        // freshly replayed state out of the young generation.
        System.gc();
    }

    @Benchmark
    public CoordinatorResult<HeartbeatResponse> memberJoins() {
        CoordinatorResult<HeartbeatResponse> result = coordinator.heartbeat(1, join);
        if (result.response().error() != ErrorCode.NONE) {
            throw new IllegalStateException("join refused: " + result.response());
        }
        return result;
    }

    @Benchmark
    public GroupAssignment baselineAssignorOnly() {
        return assignorInstance.assign(spec, describer);
    }
}
