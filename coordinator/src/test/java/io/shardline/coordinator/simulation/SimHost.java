package io.shardline.coordinator.simulation;

import io.shardline.coordinator.AuditType;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.CoordinatorResult;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.group.Group;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.LeaveRequest;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.record.ShardOwnerRecord;
import io.shardline.coordinator.testing.GroupLogModel;
import java.util.List;

/**
 * A simulated coordinator host, as the runtime hosts the coordinator ({@code CoordinatorVerticle} and
 * {@code LeaderLog}): it claims the leader epoch through the group log's claim script and rebuilds the coordinator
 * from what the claim returned, its inherited leases shortened by how long ago the predecessor's last write was
 * accepted; it persists every result (records and audit events) under its leader epoch and revision BEFORE writing
 * owner keys and answering, replacing the log by a snapshot when it grows past {@link #MAX_RECORDS_BEFORE_COMPACTION},
 * and answers nothing when the log refuses it. A deposed host keeps running (ticking, handling what reaches it): its
 * writes must all be refused.
 */
final class SimHost {

    /** The Redis identity every simulated write checked (the simulation does not restart Redis). */
    static final String RUN_ID = "sim-redis";
    /** Above this many records the log is compacted (the runtime's {@code LeaderLog} uses 2,000; smaller here so
     *  that failovers replay snapshots). */
    static final int MAX_RECORDS_BEFORE_COMPACTION = 300;

    private final Simulation sim;
    private final int id;
    private final GroupCoordinator coordinator;
    private final long leaderEpoch;
    private long revision;
    private int logRecords;
    private boolean refused;
    private boolean crashed;

    SimHost(Simulation sim, int id) {
        this.sim = sim;
        this.id = id;
        // The simulation elects (it models failure detection); the claim is the runtime's: compare-and-set on the
        // epoch just loaded, unconditional of the holder's liveness, as after a hand-over.
        GroupLogModel.State seen = sim.groupLog().load();
        GroupLogModel.Claim claim = sim.groupLog().claim("host-" + id, seen.leaderEpoch(), 1, -1, RUN_ID);
        if (!claim.won()) {
            throw new AssertionError("host " + id + " could not claim the leader epoch: " + claim);
        }
        GroupLogModel.State state = claim.state();
        this.leaderEpoch = state.leaderEpoch();
        this.revision = state.revision();
        this.logRecords = state.records().size();
        this.coordinator = new GroupCoordinator(sim::assignor, CoordinatorMetrics.NOOP);
        state.records().forEach(coordinator::replay);
        long quiet = claim.lastWrite().filter(w -> w.runId().equals(RUN_ID)).map(GroupLogModel.LastWrite::agoMs)
                .orElse(0L);
        coordinator.activate(sim.now(), quiet);
        sim.scheduler().note(() -> "host " + id + " leads with leader epoch " + leaderEpoch + " after replaying "
                + state.records().size() + " records, " + quiet + " ms after the last accepted write");
    }

    void configure(GroupConfig config, ChangeReason reason) {
        persist(coordinator.configureGroup(sim.now(), config, reason));
    }

    void onHeartbeat(SimMember from, int incarnation, long requestId, HeartbeatRequest request) {
        if (crashed) {
            return;
        }
        CoordinatorResult<HeartbeatResponse> result = coordinator.heartbeat(sim.now(), request);
        if (persist(result)) {
            HeartbeatResponse response = result.response();
            sim.network().send(() -> "answer " + request.memberId() + "#" + requestId + " " + response.error() + " e"
                    + response.memberEpoch() + " " + (response.assignmentUnchanged() ? "unchanged"
                    : response.assigned().keySet()),
                    () -> from.onResponse(incarnation, requestId, response));
        }
    }

    void onLeave(LeaveRequest request) {
        if (crashed) {
            return;
        }
        persist(coordinator.leave(sim.now(), request));
    }

    void tick() {
        if (crashed) {
            return;
        }
        persist(coordinator.tick(sim.now()));
        sim.scheduler().after(sim.leader() == this ? 100 : 1000, () -> "tick host " + id, this::tick);
    }

    private boolean persist(CoordinatorResult<?> result) {
        try {
            write(result);
        } catch (GroupLogModel.Refused e) {
            if (sim.leader() == this) {
                throw new AssertionError("the current leader was refused: " + e.getMessage());
            }
            refused = true;
            sim.scheduler().note(() -> "host " + id + " refused: " + e.kind());
            return false;
        }
        for (CoordinatorRecord r : result.records()) {
            if (r instanceof ShardOwnerRecord owner) {
                sim.redis().writeOwner(owner.shard(), owner.memberId(), owner.ownerEpoch());
            }
        }
        if (sim.leader() == this) {
            result.events().stream().filter(e -> e.type() == AuditType.MEMBER_REBALANCE_TIMEOUT)
                    .forEach(e -> sim.stats().inc("coordinator fenced at rebalance timeout"));
        }
        if (!result.records().isEmpty()) {
            sim.invariants().persisted(group());
            sim.scheduler().note(() -> "host " + id + " persisted " + result.records().size() + " records; events "
                    + result.events().stream().map(e -> e.type() + ":" + e.memberId() + e.shard().map(s -> "/" + s)
                    .orElse("")).toList());
        }
        return true;
    }

    /** {@code LeaderLog.write}: an append, or a compaction once the log would grow past the bound. */
    private void write(CoordinatorResult<?> result) {
        List<CoordinatorRecord> records = result.records();
        if (logRecords + records.size() > MAX_RECORDS_BEFORE_COMPACTION) {
            List<CoordinatorRecord> snapshot = coordinator.snapshot();
            revision = sim.groupLog().compact(leaderEpoch, revision, RUN_ID, snapshot, result.events());
            logRecords = snapshot.size();
            sim.stats().inc("compactions");
        } else {
            revision = sim.groupLog().append(leaderEpoch, revision, RUN_ID, records, result.events());
            logRecords += records.size();
        }
    }

    Group group() {
        return coordinator.group(Simulation.GROUP).orElseThrow();
    }

    GroupCoordinator coordinator() {
        return coordinator;
    }

    /** The host's process dies: from now on it answers, writes and ticks nothing. */
    void crash() {
        crashed = true;
        sim.scheduler().note(() -> "host " + id + " crashed");
    }

    boolean crashed() {
        return crashed;
    }

    boolean wasRefused() {
        return refused;
    }

    int id() {
        return id;
    }
}
