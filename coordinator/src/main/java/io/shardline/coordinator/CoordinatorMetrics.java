package io.shardline.coordinator;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.record.ChangeReason;

/**
 * The coordinator's metrics port: the runtime implements it over its metric registry. Called on the coordinator's
 * thread; implementations must be cheap and must not throw. Every method has a no-op default.
 */
public interface CoordinatorMetrics {

    /** Records nothing. */
    CoordinatorMetrics NOOP = new CoordinatorMetrics() {
    };

    /** A heartbeat was answered with {@code error}. */
    default void heartbeat(String groupId, ErrorCode error) {
    }

    /** The target changed: the assignment epoch is now {@code assignmentEpoch}. */
    default void rebalanced(String groupId, int assignmentEpoch) {
    }

    /** A member's lease passed. */
    default void memberExpired(String groupId, String memberId) {
    }

    /** A member was fenced. */
    default void memberFenced(String groupId, String memberId) {
    }

    /** A member was fenced because its revocation stayed pending longer than the rebalance timeout. */
    default void rebalanceTimedOut(String groupId, String memberId) {
    }

    /**
     * The assignor of {@code groupId} just ran (successfully or not); the host, which can time it, attributes the
     * time to the group (the core has no clock).
     */
    default void assignorRan(String groupId) {
    }

    /** A shard was released. */
    default void shardReleased(String groupId, ShardId shard, ChangeReason reason) {
    }

    /** A shard was granted. */
    default void shardGranted(String groupId, ShardId shard, int ownerEpoch) {
    }
}
