package io.shardline.coordinator.simulation;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.Group;
import io.shardline.coordinator.group.Member;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.member.MembershipState;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * The safety rules of docs/architecture.md, checked after every event, and the stability predicate:
 *
 * <ul>
 *   <li>SingleOwnerPerShard: no shard is processed (owned or draining, within the lease) by two live members;</li>
 *   <li>NoAckFromFencedMember: every processing step matches the shard's owner key (checked in {@link SimMember});</li>
 *   <li>MonotonicEpochs: a member id's epochs, the persisted group and assignment epochs and every shard's owner
 *       epoch never go backwards;</li>
 *   <li>CoordinatorConsistency: on the leader, a shard is held by at most one member and the owner table agrees.</li>
 * </ul>
 */
final class Invariants {

    private final Simulation sim;
    private final Map<String, Integer> memberEpochs = new HashMap<>();
    private final Map<ShardId, String> processors = new HashMap<>();
    private int groupEpoch;
    private int assignmentEpoch;

    Invariants(Simulation sim) {
        this.sim = sim;
    }

    /** Called after every successful persist: persisted epochs never go backwards, even across leaders. */
    void persisted(Group group) {
        if (group.groupEpoch() < groupEpoch || group.assignmentEpoch() < assignmentEpoch) {
            throw new InvariantViolation("persisted epochs went backwards: group " + groupEpoch + " -> "
                    + group.groupEpoch() + ", assignment " + assignmentEpoch + " -> " + group.assignmentEpoch());
        }
        groupEpoch = group.groupEpoch();
        assignmentEpoch = group.assignmentEpoch();
        checkCoordinator(group);
    }

    /** After every event: single processor per shard, member epochs never go back. */
    void check() {
        processors.clear();
        for (SimMember m : sim.members()) {
            m.forEachProcessing(s -> {
                String other = processors.put(s, m.memberId());
                if (other != null) {
                    throw new InvariantViolation(s + " is processed by both " + other + " and " + m.memberId());
                }
            });
            int epoch = m.membership().memberEpoch();
            if (epoch != 0) {
                Integer high = memberEpochs.get(m.memberId());
                if (high == null || epoch > high) {
                    memberEpochs.put(m.memberId(), epoch);
                } else if (epoch < high) {
                    throw new InvariantViolation("member " + m.memberId() + " epoch went back from " + high + " to "
                            + epoch);
                }
            }
        }
    }

    /** After every change of the leader's state: a shard has at most one holder and the owner table agrees. */
    void checkCoordinator(Group group) {
        Map<ShardId, String> holders = new HashMap<>();
        for (Member m : group.members().values()) {
            for (ShardId s : held(m)) {
                String other = holders.put(s, m.memberId());
                if (other != null) {
                    throw new InvariantViolation("coordinator: " + s + " held by both " + other + " and "
                            + m.memberId());
                }
                if (!m.memberId().equals(group.owner(s).memberId())) {
                    throw new InvariantViolation("coordinator: " + s + " held by " + m.memberId()
                            + " but the owner table says " + group.owner(s));
                }
            }
        }
    }

    private static Iterable<ShardId> held(Member m) {
        return m.revoking().isEmpty() ? m.assigned().keySet() : m.held();
    }

    /** Stable: membership as live, everyone STABLE on both sides, every shard owned by a live member. */
    String unstableReason() {
        Group group = sim.leader().group();
        TreeSet<String> live = new TreeSet<>();
        for (SimMember m : sim.members()) {
            if (m.alive()) {
                live.add(m.memberId());
            }
        }
        if (!live.equals(new TreeSet<>(group.members().keySet()))) {
            return "coordinator members " + group.members().keySet() + " != live " + live;
        }
        for (Member m : group.members().values()) {
            if (m.state() != MemberState.STABLE) {
                return m.memberId() + " is " + m.state() + " on the coordinator";
            }
            SimMember sm = sim.member(m.memberId());
            if (sm.membership().state() != MembershipState.STABLE) {
                return m.memberId() + " is " + sm.membership().state() + " on the member";
            }
            if (!sm.membership().owned().equals(m.assigned())) {
                return m.memberId() + " owns " + sm.membership().owned() + " but is assigned " + m.assigned();
            }
        }
        int shards = group.config().shardCount(Simulation.STREAM);
        for (int i = 0; i < shards; i++) {
            ShardId s = new ShardId(Simulation.STREAM, i);
            SimRedis.Owner owner = sim.redis().owner(s);
            String holder = group.owner(s).memberId();
            if (owner == null || holder == null || !owner.memberId().equals(holder)
                    || !sim.member(holder).membership().owned().containsKey(s)) {
                return s + " is not owned (owner key " + owner + ", holder " + holder + ")";
            }
        }
        return null;
    }
}
