package io.shardline.runtime.cluster;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a worker needs to join the Hazelcast cluster.
 *
 * <p>Immutable.
 *
 * @param clusterName Hazelcast cluster name
 * @param workerId this worker's id (published as a member attribute; must be unique)
 * @param host interface to bind and advertise
 * @param port Hazelcast port (fixed)
 * @param members TCP/IP seed members ({@code host:port})
 * @param failureTimeoutMs time without heartbeats after which a member is removed
 * @param mergeDelayMs delay of split-brain merge checks
 * @param attributes extra member attributes (e.g. the REST address) published to the other workers
 * @param security the join secret and event-bus TLS ({@link ClusterSecurity#NONE}: neither)
 * @param ports the advertised ports and the event bus's port ({@link ClusterPorts#DIRECT}: as bound)
 */
public record ClusterSettings(
        String clusterName,
        String workerId,
        String host,
        int port,
        List<String> members,
        long failureTimeoutMs,
        long mergeDelayMs,
        Map<String, String> attributes,
        ClusterSecurity security,
        ClusterPorts ports) {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    /** Validates and copies. */
    public ClusterSettings {
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(ports, "ports");
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(host, "host");
        members = List.copyOf(members);
        attributes = Map.copyOf(attributes);
    }

    /** Settings without a join secret or event-bus TLS. */
    public ClusterSettings(String clusterName, String workerId, String host, int port, List<String> members,
                           long failureTimeoutMs, long mergeDelayMs, Map<String, String> attributes) {
        this(clusterName, workerId, host, port, members, failureTimeoutMs, mergeDelayMs, attributes,
                ClusterSecurity.NONE, ClusterPorts.DIRECT);
    }

    /** Settings with a join secret or event-bus TLS, as bound (no forwarder). */
    public ClusterSettings(String clusterName, String workerId, String host, int port, List<String> members,
                           long failureTimeoutMs, long mergeDelayMs, Map<String, String> attributes,
                           ClusterSecurity security) {
        this(clusterName, workerId, host, port, members, failureTimeoutMs, mergeDelayMs, attributes, security,
                ClusterPorts.DIRECT);
    }

    /** This worker's member address as bound, {@code host:port}. */
    public String memberAddress() {
        return host + ":" + port;
    }

    /** Whether {@code host} is an IPv4 literal (Hazelcast then binds that one interface, and sees it as its own). */
    public boolean hostIsIpv4() {
        return IPV4.matcher(host).matches();
    }

    /** A copy with {@code security}. */
    public ClusterSettings withSecurity(ClusterSecurity security) {
        return new ClusterSettings(clusterName, workerId, host, port, members, failureTimeoutMs, mergeDelayMs,
                attributes, security, ports);
    }
}
