package io.shardline.coordinator.simulation;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.Group;
import io.shardline.coordinator.group.Member;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Revocations whose drain hangs (a handler that never returns while the member keeps heartbeating) and the
 * rebalance-timeout invariants over them, checked after every event:
 *
 * <ul>
 *   <li>HungShardStops: the member never processes a hung shard once its own rebalance timeout passed (it fences
 *       itself at that deadline at the latest);</li>
 *   <li>HungRevocationResolves: the leader releases the hung shard (or grants it anew, or drops the member)
 *       within {@link SimConfig#hungRevocationBoundMs} of the member learning of the revocation, unless a
 *       failover (within one session before), a crash, pause or leave of that member interfered.</li>
 * </ul>
 *
 * <p>Exclusive ownership while the drain hangs is the general SingleOwnerPerShard invariant: the member keeps
 * processing the hung shard until it fences itself, and nobody else may get it before.
 */
final class HungDrains {

    /** Loop granularity of a simulated member: it notices its own deadline this late at most. */
    private static final int LOOP_MS = 100;

    /**
     * One hung drain.
     *
     * @param member the member
     * @param shard the shard
     * @param ownerEpoch the owner epoch the member held it with
     * @param generation the member's fencing generation when the revocation came
     * @param startMs when the member learnt of the revocation
     * @param lostAtStart the member's lost requests then
     * @param fencesAtStart the member's fences then
     * @param disturbancesAtStart the member's crashes, pauses and restarts then
     */
    private record Hang(SimMember member, ShardId shard, int ownerEpoch, int generation, long startMs,
            int lostAtStart, int fencesAtStart, int disturbancesAtStart) {
    }

    private final Simulation sim;
    private final List<Hang> open = new ArrayList<>();

    HungDrains(Simulation sim) {
        this.sim = sim;
    }

    /** Decides (from the seed) whether the drain of {@code shard} that {@code member} just started hangs. */
    boolean maybeHang(SimMember member, ShardId shard, int ownerEpoch, int generation) {
        SimConfig config = sim.config();
        if (config.hangPercent() == 0 || sim.now() >= config.faultEndMs() || member.leaving()
                || sim.random().nextInt(100) >= config.hangPercent()) {
            return false;
        }
        open.add(new Hang(member, shard, ownerEpoch, generation, sim.now(), member.lostRequests(),
                member.fences(), member.disturbances()));
        sim.stats().inc("hung drains");
        sim.scheduler().note(() -> "drain hangs " + member.memberId() + " " + shard);
        return true;
    }

    /** After every event. */
    void check() {
        if (open.isEmpty()) {
            return;
        }
        long now = sim.now();
        Group group = sim.leader().group();
        for (Iterator<Hang> it = open.iterator(); it.hasNext(); ) {
            Hang h = it.next();
            SimMember m = h.member();
            long rebalanceTimeout = sim.config().rebalanceTimeoutMs();
            if (m.membership().generation() == h.generation() && now > h.startMs() + rebalanceTimeout + LOOP_MS
                    && m.processing().contains(h.shard())) {
                throw new InvariantViolation(m.memberId() + " still processes " + h.shard() + " whose drain hangs since "
                        + h.startMs() + ", past its rebalance timeout of " + rebalanceTimeout + " ms");
            }
            if (interfered(h)) {
                sim.stats().inc("hung drains with a fault in the window");
                it.remove();
                continue;
            }
            if (resolved(group, h)) {
                // Every request lost on the way timed out before the one that resolved it was sent.
                int lost = m.lostRequests() - h.lostAtStart();
                int extraFences = Math.max(0, m.fences() - h.fencesAtStart() - 1);
                long bound = h.startMs() + sim.config().hungRevocationBoundMs(lost, extraFences);
                if (now > bound) {
                    throw new InvariantViolation("the drain of " + h.shard() + " by " + m.memberId() + " hangs since "
                            + h.startMs() + " and the leader released it only at " + now + " (bound " + bound
                            + ": rebalance timeout " + rebalanceTimeout + " ms + 4 heartbeat intervals + request "
                            + "timeouts for " + lost + " lost requests and " + extraFences + " extra fences)");
                }
                sim.stats().inc("hung drains resolved in bound");
                sim.stats().max("hung drain resolved after rebalance timeout + ms", now - h.startMs() - rebalanceTimeout);
                sim.stats().max("hung drain resolved after rebalance timeout + ms, no message lost",
                        lost + extraFences == 0 ? now - h.startMs() - rebalanceTimeout : 0);
                it.remove();
                continue;
            }
            if (now > h.startMs() + sim.config().hungRevocationHardBoundMs()) {
                throw new InvariantViolation("the drain of " + h.shard() + " by " + m.memberId() + " hangs since "
                        + h.startMs() + " and the leader still has it held at " + now);
            }
        }
    }

    private boolean interfered(Hang h) {
        SimMember m = h.member();
        return sim.lastFailoverMs() >= h.startMs() - sim.config().sessionTimeoutMs()
                || m.disturbances() != h.disturbancesAtStart() || m.leaving() || m.knownLeaderId() != sim.leader().id();
    }

    private static boolean resolved(Group group, Hang h) {
        Member m = group.member(h.member().memberId());
        return m == null || !m.holds(h.shard()) || group.owner(h.shard()).ownerEpoch() != h.ownerEpoch();
    }
}
