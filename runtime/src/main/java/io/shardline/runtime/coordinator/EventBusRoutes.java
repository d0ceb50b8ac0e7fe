package io.shardline.runtime.coordinator;

import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.vertx.core.Context;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves the event-bus route to every worker's coordinator host once it enters the view (this worker's own
 * too: the clustered event bus looks up even a local address's registrations in Hazelcast), with a
 * {@link CoordinatorWire#PING} that the host answers at once: the request resolves the route there (the address's
 * registrations, the node's address, a connection) and the answer the route back. Resolved later, when a member first
 * needs a new leader, those lookups read Hazelcast partitions that a frozen worker may still own, and block until
 * Hazelcast removes it: seconds in which no heartbeat gets through.
 *
 * <p>Context-confined: used only on the coordinator host's context.
 */
final class EventBusRoutes {

    private static final Logger LOG = LoggerFactory.getLogger(EventBusRoutes.class);

    private final Context context;
    private final String clusterName;
    private final String workerId;
    private final long timeoutMs;
    /** The nodes of the view whose route was resolved (or is being). */
    private final Set<String> routed = new HashSet<>();

    EventBusRoutes(Context context, String clusterName, String workerId, long timeoutMs) {
        this.context = context;
        this.clusterName = clusterName;
        this.workerId = workerId;
        this.timeoutMs = timeoutMs;
    }

    /** Pings the host of every worker of {@code view} (itself included) not pinged yet (again after it came back). */
    void warm(LeaderView view) {
        Set<String> nodes = new HashSet<>();
        view.members().forEach(m -> nodes.add(m.nodeId()));
        routed.retainAll(nodes);
        for (ClusterMember m : view.members()) {
            if (!routed.add(m.nodeId())) {
                continue;
            }
            context.owner().eventBus().request(CoordinatorWire.address(clusterName, m.workerId()),
                            new JsonObject().put(CoordinatorWire.OP, CoordinatorWire.PING),
                            new DeliveryOptions().setSendTimeout(timeoutMs))
                    .onComplete(ar -> {
                        if (ar.failed()) {
                            // Not deployed yet (a worker that is starting): the next view change tries again.
                            LOG.debug("Coordinator on {}: no answer from {} to a route warm-up: {}", workerId,
                                    m.workerId(), ar.cause().getMessage());
                            context.runOnContext(v -> routed.remove(m.nodeId()));
                        }
                    });
        }
    }
}
