package io.shardline.coordinator.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.AuditEvent;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.CoordinatorResult;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.group.Group;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.group.RebalanceProtocol;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.LeaveRequest;
import io.shardline.coordinator.protocol.LeaveResponse;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.CoordinatorRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Wires a {@link GroupCoordinator} with a {@link MockTime} and a {@link GroupLogModel} the way the runtime hosts
 * it: every result is appended to the group log under the leader epoch before its answer is returned.
 * {@link #sleep(long)} advances time and ticks (Kafka's {@code GroupMetadataManagerTestContext.sleep}).
 */
public final class CoordinatorTestContext {

    /** The group every test uses. */
    public static final String GROUP = "orders-group";
    /** The stream every test uses. */
    public static final String STREAM = "orders";

    private final MockTime time;
    private final GroupLogModel store;
    private final Assignor assignor;
    private GroupCoordinator coordinator;
    private long leaderEpoch;
    private long revision;
    private final List<AuditEvent> audit = new ArrayList<>();
    private final List<CoordinatorRecord> lastRecords = new ArrayList<>();

    private CoordinatorTestContext(MockTime time, GroupLogModel store, Assignor assignor) {
        this.time = time;
        this.store = store;
        this.assignor = assignor;
        becomeLeader();
    }

    /** A context with a cooperative group over {@code shards} shards of {@link #STREAM}. */
    public static CoordinatorTestContext withShards(int shards) {
        return builder().withShards(shards).build();
    }

    /** A builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link CoordinatorTestContext}. */
    public static final class Builder {
        private int shards = 4;
        private RebalanceProtocol protocol = RebalanceProtocol.COOPERATIVE;
        private int sessionTimeoutMs = 3000;
        private int heartbeatIntervalMs = 500;
        private int rebalanceTimeoutMs = GroupConfig.DEFAULT_REBALANCE_TIMEOUT_MS;
        private Assignor assignor = new SimpleRangeAssignor();

        /** Shards of {@link #STREAM}. */
        public Builder withShards(int value) {
            this.shards = value;
            return this;
        }

        /** The rebalance protocol. */
        public Builder withProtocol(RebalanceProtocol value) {
            this.protocol = value;
            return this;
        }

        /** The session timeout. */
        public Builder withSessionTimeoutMs(int value) {
            this.sessionTimeoutMs = value;
            return this;
        }

        /** The rebalance timeout. */
        public Builder withRebalanceTimeoutMs(int value) {
            this.rebalanceTimeoutMs = value;
            return this;
        }

        /** The assignor. */
        public Builder withAssignor(Assignor value) {
            this.assignor = value;
            return this;
        }

        /** The context with the group configured at time 0. */
        public CoordinatorTestContext build() {
            MockTime time = new MockTime(0);
            CoordinatorTestContext ctx = new CoordinatorTestContext(time, new GroupLogModel(time::milliseconds, 1_000),
                    assignor);
            ctx.persist(ctx.coordinator.configureGroup(0, new GroupConfig(GROUP, new TreeMap<>(Map.of(STREAM, shards)),
                    assignor.name(), protocol, sessionTimeoutMs, heartbeatIntervalMs, rebalanceTimeoutMs),
                    ChangeReason.GROUP_CREATED));
            return ctx;
        }
    }

    /** Claims leadership and rebuilds the coordinator from the store (a leader change), then activates it. */
    public GroupCoordinator becomeLeader() {
        return becomeLeader(0);
    }

    /**
     * A leader change whose claim found the predecessor's last accepted write {@code quietMs} ago (0: unknown).
     */
    public GroupCoordinator becomeLeader(long quietMs) {
        GroupLogModel.State state = store.claim("host", -1, 1, -1, "").state();
        leaderEpoch = state.leaderEpoch();
        revision = state.revision();
        coordinator = new GroupCoordinator(name -> name.equals(assignor.name()) ? assignor : null,
                CoordinatorMetrics.NOOP);
        state.records().forEach(coordinator::replay);
        coordinator.activate(time.milliseconds(), quietMs);
        return coordinator;
    }

    /** Appends the result's records under the leader epoch (throws if refused) and returns the result. */
    public <T> CoordinatorResult<T> persist(CoordinatorResult<T> result) {
        revision = store.append(leaderEpoch, revision, "", result.records(), result.events());
        audit.addAll(result.events());
        lastRecords.clear();
        lastRecords.addAll(result.records());
        return result;
    }

    /** Sends {@code request} now. */
    public HeartbeatResponse heartbeat(HeartbeatRequest request) {
        return persist(coordinator.heartbeat(time.milliseconds(), request)).response();
    }

    /** Joins {@code memberId} reading {@link #STREAM}. */
    public HeartbeatResponse join(String memberId) {
        return heartbeat(request(memberId, 0, List.of(), List.of(), 0));
    }

    /** A heartbeat of {@code memberId} under {@code epoch} owning {@code owned}, revoking {@code revoking}. */
    public HeartbeatResponse heartbeat(String memberId, int epoch, List<ShardId> owned, List<RevokeReport> revoking) {
        return heartbeat(request(memberId, epoch, owned, revoking, coordinator.group(GROUP).get().assignmentEpoch()));
    }

    /** A request reading {@link #STREAM}. */
    public static HeartbeatRequest request(String memberId, int epoch, List<ShardId> owned,
            List<RevokeReport> revoking, int assignmentEpoch) {
        return new HeartbeatRequest(GROUP, memberId, epoch, Optional.empty(), Optional.empty(),
                new TreeSet<>(List.of(STREAM)), new TreeSet<>(owned), revoking, assignmentEpoch);
    }

    /** A delta request reading {@link #STREAM}: its owned shards are the ones of its last answered request. */
    public static HeartbeatRequest delta(String memberId, int epoch, List<RevokeReport> revoking, int assignmentEpoch) {
        return new HeartbeatRequest(GROUP, memberId, epoch, Optional.empty(), Optional.empty(),
                new TreeSet<>(List.of(STREAM)), new TreeSet<>(), revoking, assignmentEpoch, 1, true);
    }

    /** Leaves. */
    public LeaveResponse leave(String memberId, int epoch) {
        return persist(coordinator.leave(time.milliseconds(), new LeaveRequest(GROUP, memberId, epoch))).response();
    }

    /** Advances time by {@code ms}, ticks and persists. */
    public CoordinatorResult<Void> sleep(long ms) {
        time.sleep(ms);
        return persist(coordinator.tick(time.milliseconds()));
    }

    /** Shards {@code indexes} of {@link #STREAM}. */
    public static List<ShardId> shards(int... indexes) {
        return Arrays.stream(indexes).mapToObj(i -> new ShardId(STREAM, i)).toList();
    }

    /** Asserts the lease deadline of {@code memberId}. */
    public void assertLeaseDeadline(String memberId, long deadlineMs) {
        assertEquals(deadlineMs, group().leaseDeadline(memberId), "lease deadline of " + memberId);
    }

    /** The group. */
    public Group group() {
        return coordinator.group(GROUP).orElseThrow();
    }

    /** The member {@code memberId}, or null. */
    public Member member(String memberId) {
        return group().member(memberId);
    }

    /** The coordinator. */
    public GroupCoordinator coordinator() {
        return coordinator;
    }

    /** The group log. */
    public GroupLogModel store() {
        return store;
    }

    /** The clock. */
    public MockTime time() {
        return time;
    }

    /** The leader epoch this context writes with. */
    public long leaderEpoch() {
        return leaderEpoch;
    }

    /** The store revision this context expects. */
    public long revision() {
        return revision;
    }

    /** Every audit event so far. */
    public List<AuditEvent> audit() {
        return audit;
    }

    /** The records of the last persisted result. */
    public List<CoordinatorRecord> lastRecords() {
        return lastRecords;
    }
}
