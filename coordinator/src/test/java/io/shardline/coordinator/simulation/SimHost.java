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
import io.shardline.coordinator.store.StoreConflictException;
import io.shardline.coordinator.store.StoreState;

/**
 * A simulated coordinator host, as the runtime hosts the coordinator: it rebuilds the coordinator from the store
 * when it becomes leader, persists every result under its leader epoch BEFORE writing owner keys and answering,
 * and answers nothing when the store refuses it. A deposed host keeps running (ticking, handling what reaches
 * it): its writes must all be refused.
 */
final class SimHost {

    private final Simulation sim;
    private final int id;
    private final GroupCoordinator coordinator;
    private final long leaderEpoch;
    private long revision;
    private boolean refused;
    private boolean crashed;

    SimHost(Simulation sim, int id) {
        this.sim = sim;
        this.id = id;
        StoreState state = sim.store().claimLeadership();
        this.leaderEpoch = state.leaderEpoch();
        this.revision = state.revision();
        this.coordinator = new GroupCoordinator(sim::assignor, CoordinatorMetrics.NOOP);
        state.records().forEach(coordinator::replay);
        long quiet = sim.storeQuietMs();
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
                    + response.memberEpoch() + " " + response.assigned().keySet(),
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
            revision = sim.store().append(leaderEpoch, revision, result.records());
            sim.writeAccepted();
        } catch (StoreConflictException e) {
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
