package io.shardline.runtime.cluster;

import java.util.Map;
import java.util.Objects;

/**
 * One worker as the cluster sees it.
 *
 * <p>Immutable.
 *
 * @param nodeId Hazelcast member UUID (also the Vert.x node id)
 * @param workerId the Shardline worker id
 * @param address Hazelcast {@code host:port}
 * @param attributes the member's published attributes (e.g. the REST address)
 */
public record ClusterMember(String nodeId, String workerId, String address, Map<String, String> attributes) {

    /** Validates and copies. */
    public ClusterMember {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(address, "address");
        attributes = Map.copyOf(attributes);
    }
}
