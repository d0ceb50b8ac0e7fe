package io.shardline.runtime.coordinator;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.runtime.metrics.CoordinatorHostMetrics;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Times the assignor calls of the hosted coordinator and reports them per group: the pure core has no clock, so
 * the host wraps every assignor ({@link #wrap}) and the core names the group right after each call
 * ({@link CoordinatorMetrics#assignorRan}); every other event goes straight to the host's metrics. Used on the
 * coordinator's context only; not thread-safe.
 */
final class AssignorTiming implements CoordinatorMetrics {

    private final CoordinatorMetrics delegate;
    private final CoordinatorHostMetrics host;
    private final LongSupplier nanoClock;
    private long lastNanos = -1;

    /**
     * A timing port.
     *
     * @param delegate receives the core's events
     * @param host receives the assignor times
     * @param nanoClock measures them (metrics only: no decision depends on it)
     */
    AssignorTiming(CoordinatorMetrics delegate, CoordinatorHostMetrics host, LongSupplier nanoClock) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.host = Objects.requireNonNull(host, "host");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    /** {@code assignors} with every assignor timed. */
    Function<String, Assignor> wrap(Function<String, Assignor> assignors) {
        return name -> {
            Assignor assignor = assignors.apply(name);
            return assignor == null ? null : new Timed(assignor);
        };
    }

    @Override
    public void assignorRan(String groupId) {
        if (lastNanos >= 0) {
            host.assignmentComputed(groupId, lastNanos);
            lastNanos = -1;
        }
    }

    @Override
    public void heartbeat(String groupId, ErrorCode error) {
        delegate.heartbeat(groupId, error);
    }

    @Override
    public void rebalanced(String groupId, int assignmentEpoch) {
        delegate.rebalanced(groupId, assignmentEpoch);
    }

    @Override
    public void memberExpired(String groupId, String memberId) {
        delegate.memberExpired(groupId, memberId);
    }

    @Override
    public void memberFenced(String groupId, String memberId) {
        delegate.memberFenced(groupId, memberId);
    }

    @Override
    public void rebalanceTimedOut(String groupId, String memberId) {
        delegate.rebalanceTimedOut(groupId, memberId);
    }

    @Override
    public void shardReleased(String groupId, ShardId shard, ChangeReason reason) {
        delegate.shardReleased(groupId, shard, reason);
    }

    @Override
    public void shardGranted(String groupId, ShardId shard, int ownerEpoch) {
        delegate.shardGranted(groupId, shard, ownerEpoch);
    }

    /** An assignor whose calls are timed. */
    private final class Timed implements Assignor {
        private final Assignor assignor;

        Timed(Assignor assignor) {
            this.assignor = assignor;
        }

        @Override
        public String name() {
            return assignor.name();
        }

        @Override
        public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
            long start = nanoClock.getAsLong();
            try {
                return assignor.assign(group, shards);
            } finally {
                lastNanos = nanoClock.getAsLong() - start;
            }
        }
    }
}
