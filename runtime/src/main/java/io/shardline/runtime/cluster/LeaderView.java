package io.shardline.runtime.cluster;

import java.util.List;
import java.util.Objects;

/**
 * One worker's view of the cluster after a membership change: the members, oldest first, and the
 * leader they imply. The rule is "the oldest member leads": every worker sees the same member order,
 * so every worker computes the same leader without any exchange. It is advisory only: it says who
 * should claim the leader epoch when nobody holds it; the coordinator is the holder of the leader epoch
 * in Redis, which keeps it while it writes, whatever the views say (a frozen leader's successor takes it
 * before Hazelcast has noticed; see {@code LeaderSuccession}). During a split each side has its own
 * oldest member; Redis fencing (leader epochs) decides whose writes count.
 *
 * <p>Immutable.
 *
 * @param members live members, oldest first (Hazelcast join order)
 * @param local this worker
 */
public record LeaderView(List<ClusterMember> members, ClusterMember local) {

    /** Validates: at least one member, and the local worker is one of them. */
    public LeaderView {
        members = List.copyOf(members);
        Objects.requireNonNull(local, "local");
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a cluster view has at least the local member");
        }
    }

    /** The leader: the oldest member. */
    public ClusterMember leader() {
        return members.get(0);
    }

    /** Whether this worker is the leader. */
    public boolean isLeader() {
        return leader().nodeId().equals(local.nodeId());
    }

    /** Number of live workers. */
    public int size() {
        return members.size();
    }

    @Override
    public String toString() {
        return "LeaderView[size=" + size() + ", leader=" + leader().workerId() + ", local=" + local.workerId() + "]";
    }
}
