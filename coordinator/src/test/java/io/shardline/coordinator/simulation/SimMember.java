package io.shardline.coordinator.simulation;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.member.MemberAction;
import io.shardline.coordinator.member.MemberAction.FenceAll;
import io.shardline.coordinator.member.MemberAction.RevokeShard;
import io.shardline.coordinator.member.MemberAction.StartShard;
import io.shardline.coordinator.member.Membership;
import io.shardline.coordinator.member.MembershipConfig;
import io.shardline.coordinator.member.MembershipState;
import io.shardline.coordinator.member.SentHeartbeat;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.LeaveRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A simulated member process running {@link Membership}: it heartbeats to whoever leads when it sends, executes
 * the actions (start, drain after a random time, fence all), processes its shards (each processing step is
 * checked against the owner key, as the fenced acknowledgement script would) and can crash, pause (GC) and leave.
 * Events of an earlier incarnation (before a crash and restart) are ignored; events during a pause wait for it.
 */
final class SimMember {

    private static final int STEP_MS = 100;

    private final Simulation sim;
    private final String memberId;
    private final Optional<String> instanceId;
    private Membership membership;
    private int incarnation;
    private boolean crashed;
    private boolean left;
    private long pausedUntil;
    private int disturbances;
    private int lostRequests;
    private int fences;
    private long lastAnsweredRequestId;
    private final TreeMap<ShardId, Integer> epochs = new TreeMap<>();
    private SimHost knownLeader;

    SimMember(Simulation sim, String memberId, Optional<String> instanceId) {
        this.sim = sim;
        this.memberId = memberId;
        this.instanceId = instanceId;
        restart();
    }

    /** Starts (or restarts after a crash) with a fresh membership: the next heartbeat joins with epoch 0. */
    void restart() {
        incarnation++;
        disturbances++;
        lastAnsweredRequestId = 0;
        crashed = false;
        epochs.clear();
        membership = new Membership(new MembershipConfig(Simulation.GROUP, memberId, instanceId, Optional.empty(),
                new TreeSet<>(List.of(Simulation.STREAM)), sim.config().heartbeatIntervalMs(),
                sim.config().selfFenceMarginMs(), sim.config().rebalanceTimeoutMs()));
        int inc = incarnation;
        sim.scheduler().after(sim.random().nextInt(STEP_MS), () -> "start " + memberId, () -> loop(inc));
    }

    /** The leader this member believes in: it learns of a failover some time after it happened. */
    private SimHost knownLeader() {
        if (knownLeader == null) {
            knownLeader = sim.leader();
        }
        return knownLeader;
    }

    /** This member learns that {@code host} leads now. */
    void learnLeader(SimHost host) {
        if (knownLeader == null || host.id() > knownLeader.id()) {
            knownLeader = host;
        }
    }

    void crash() {
        crashed = true;
        disturbances++;
        sim.scheduler().note(() -> "crash " + memberId);
    }

    void pause(long untilMs) {
        pausedUntil = Math.max(pausedUntil, untilMs);
        disturbances++;
        sim.scheduler().note(() -> "pause " + memberId + " until " + untilMs);
    }

    void leave() {
        if (!crashed && !left) {
            apply(membership.leave(sim.now()));
        }
    }

    /** Runs {@code action} now unless crashed or another incarnation; defers it to the end of a pause. */
    private void local(int inc, String label, Runnable action) {
        if (inc != incarnation || crashed || left) {
            return;
        }
        if (sim.now() < pausedUntil) {
            sim.scheduler().at(pausedUntil, () -> label + " (after pause)", () -> local(inc, label, action));
            return;
        }
        action.run();
    }

    private void loop(int inc) {
        local(inc, "loop " + memberId, () -> {
            if (pump(inc)) {
                sim.scheduler().after(STEP_MS, () -> "loop " + memberId, () -> loop(inc));
            }
        });
    }

    /** Fences if the lease passed, sends the leave or a due heartbeat, processes; false once the member left. */
    private boolean pump(int inc) {
        apply(membership.tick(sim.now()));
        Optional<LeaveRequest> leave = membership.leaveRequest(sim.now());
        if (membership.state() == MembershipState.LEFT) {
            left = true;
            SimHost host = knownLeader();
            leave.ifPresent(l -> sim.network().send(() -> "leave " + memberId, () -> host.onLeave(l)));
            return false;
        }
        if (membership.heartbeatDue(sim.now())) {
            send(inc);
        }
        process();
        return true;
    }

    private void send(int inc) {
        SentHeartbeat sent = membership.heartbeat(sim.now());
        SimHost host = knownLeader();
        sim.network().send(() -> "heartbeat " + memberId + "#" + sent.requestId() + " e" + sent.request().memberEpoch()
                + " owned " + (sent.request().ownedUnchanged() ? "unchanged" : sent.request().owned()) + " revoking " + sent.request().revoking() + " -> host "
                + host.id(), () -> host.onHeartbeat(this, inc, sent.requestId(), sent.request()));
        sim.scheduler().after(sim.config().requestTimeoutMs(), () -> "timeout " + memberId + "#" + sent.requestId(),
                () -> local(inc, "timeout", () -> {
                    if (sent.requestId() > lastAnsweredRequestId) {
                        lostRequests++;
                    }
                    membership.onRequestFailed(sim.now(), sent.requestId());
                    apply(membership.tick(sim.now()));
                }));
    }

    void onResponse(int inc, long requestId, HeartbeatResponse response) {
        local(inc, "answer " + memberId, () -> {
            lastAnsweredRequestId = Math.max(lastAnsweredRequestId, requestId);
            apply(membership.onResponse(sim.now(), requestId, response));
            pump(inc);
        });
    }

    private void apply(List<MemberAction> actions) {
        int inc = incarnation;
        for (MemberAction a : actions) {
            if (a instanceof StartShard start) {
                epochs.put(start.shard(), start.ownerEpoch());
            } else if (a instanceof RevokeShard revoke) {
                long drainMs = sim.random().nextInt(sim.config().maxDrainMs() + 1);
                if (sim.hungDrains().maybeHang(this, revoke.shard(), epochs.getOrDefault(revoke.shard(), -1),
                        revoke.generation())) {
                    // The handler returns long after the member fenced itself: that drain must be ignored.
                    int rebalance = sim.config().rebalanceTimeoutMs();
                    drainMs = rebalance + sim.random().nextInt(2 * rebalance);
                }
                sim.scheduler().after(drainMs,
                        () -> "drained " + memberId + " " + revoke.shard(),
                        () -> local(inc, "drained", () -> {
                            membership.onShardDrained(revoke.shard(), revoke.generation());
                            pump(inc);
                        }));
            } else if (a instanceof FenceAll fence) {
                fences++;
                sim.scheduler().note(() -> "fence all " + memberId + " " + fence.shards() + ": " + fence.reason());
                sim.stats().inc(fence.reason().startsWith("no answer") ? "self-fenced at lease deadline"
                        : fence.reason().startsWith("rebalance timeout") ? "self-fenced at rebalance timeout"
                        : "fenced by the coordinator");
                epochs.clear();
            }
        }
    }

    /** One processing step per owned or draining shard, checked like the fenced acknowledgement script. */
    private void process() {
        for (Map.Entry<ShardId, Integer> e : epochs.entrySet()) {
            ShardId s = e.getKey();
            if (membership.mayProcess(s, sim.now())) {
                SimRedis.Owner owner = sim.redis().owner(s);
                if (owner == null || !owner.memberId().equals(memberId) || owner.epoch() != e.getValue()) {
                    throw new InvariantViolation(memberId + " processes " + s + " with owner epoch " + e.getValue()
                            + " but the owner key says " + owner + ": an acknowledgement would be fenced");
                }
            }
        }
    }

    /** Calls {@code action} for every shard this member may process now, unless crashed. */
    void forEachProcessing(java.util.function.Consumer<ShardId> action) {
        if (crashed || left) {
            return;
        }
        long now = sim.now();
        for (ShardId s : epochs.keySet()) {
            if (membership.mayProcess(s, now)) {
                action.accept(s);
            }
        }
    }

    /** The shards this member may process now (owned or draining within its lease), unless crashed. */
    TreeSet<ShardId> processing() {
        TreeSet<ShardId> out = new TreeSet<>();
        if (crashed || left) {
            return out;
        }
        for (ShardId s : epochs.keySet()) {
            if (membership.mayProcess(s, sim.now())) {
                out.add(s);
            }
        }
        return out;
    }

    boolean alive() {
        return !crashed && !left;
    }

    boolean leaving() {
        return membership.state() == MembershipState.LEAVING || left;
    }

    String memberId() {
        return memberId;
    }

    Optional<String> instanceId() {
        return instanceId;
    }

    Membership membership() {
        return membership;
    }

    /** Crashes, restarts and pauses so far. */
    int disturbances() {
        return disturbances;
    }

    /** Heartbeats that got no answer within the request timeout. */
    int lostRequests() {
        return lostRequests;
    }

    /** How often this member dropped everything ({@code FenceAll}). */
    int fences() {
        return fences;
    }

    /** The id of the host this member sends to. */
    int knownLeaderId() {
        return knownLeader().id();
    }

    long pausedUntil() {
        return pausedUntil;
    }
}
