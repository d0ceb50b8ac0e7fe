package io.shardline.runtime.metrics;

import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.group.Member;

/**
 * What the coordinator host measures around the pure core, besides the core's own {@link CoordinatorMetrics}
 * events: group sizes and epochs, pending revocations, heartbeat latency, leadership and assignor time. The host
 * calls it on its context; implementations must be cheap and must not throw. Every method has a no-op default.
 */
public interface CoordinatorHostMetrics extends CoordinatorMetrics {

    /** Records nothing. */
    CoordinatorHostMetrics NOOP = new CoordinatorHostMetrics() {
    };

    /** The group's state after a coordinator step (every tick and configuration). */
    default void group(String groupId, int members, int groupEpoch, int assignmentEpoch, int pendingRevocations) {
    }

    /** {@link #group} for every group {@code coordinator} holds. */
    default void groups(GroupCoordinator coordinator) {
        for (String groupId : coordinator.groupIds()) {
            coordinator.group(groupId).ifPresent(g -> {
                int pending = 0;
                for (Member m : g.members().values()) {
                    pending += m.revoking().size();
                }
                group(groupId, g.members().size(), g.groupEpoch(), g.assignmentEpoch(), pending);
            });
        }
    }

    /** A heartbeat of {@code groupId} was answered {@code nanos} after it arrived (queueing, decision, write). */
    default void heartbeatAnswered(String groupId, long nanos) {
    }

    /** This worker took the coordinator role with {@code leaderEpoch}, or lost it ({@code leaderEpoch} 0). */
    default void leadership(long leaderEpoch) {
    }

    /** The assignor of {@code groupId} took {@code nanos} to compute a target. */
    default void assignmentComputed(String groupId, long nanos) {
    }
}
