package io.shardline.runtime.coordinator;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.Objects;

/**
 * The coordinator's hint that a group's members have something to learn now (docs/protocol.md section 5,
 * "Revoke-before-assign"), published on the cluster's event bus, no answer: after it committed a change of the group's
 * shard set (a resharding step) and after a member reported shards revoked (they can go to the members waiting for
 * them). Every member of the group but the one that caused it heartbeats at once instead of at its next interval, so a
 * moved shard is idle for the revocation's round trip rather than up to two heartbeat intervals. Only a hint: the
 * heartbeats decide, and a lost hint costs what it saves. Thread-safe.
 */
public final class RebalanceHints {

    private final Vertx vertx;
    private final String clusterName;

    /** Hints of the cluster {@code clusterName}. */
    public RebalanceHints(Vertx vertx, String clusterName) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.clusterName = Objects.requireNonNull(clusterName, "clusterName");
    }

    private String address(String groupId) {
        return "shardline." + clusterName + ".group." + groupId + ".rebalanced";
    }

    /** Tells {@code groupId}'s members, all but {@code cause} (a member id, or empty), to heartbeat now. */
    void publish(String groupId, String cause) {
        vertx.eventBus().publish(address(groupId), new JsonObject().put("cause", cause));
    }

    /**
     * Runs {@code heartbeatNow} on every hint to {@code groupId} that member {@code memberId} did not cause, on the
     * caller's context; unregister the consumer when the member stops.
     */
    public MessageConsumer<JsonObject> listen(String groupId, String memberId, Runnable heartbeatNow) {
        return vertx.eventBus().consumer(address(groupId), message -> {
            if (!memberId.equals(message.body().getString("cause"))) {
                heartbeatNow.run();
            }
        });
    }
}
