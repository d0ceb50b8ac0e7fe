package io.shardline.runtime.cluster;

/**
 * The ports a worker's cluster traffic uses besides {@code cluster.port}: where the other workers reach its
 * Hazelcast member port and its event bus when a forwarder stands between them (NAT, a container's published
 * ports, or the TCP proxies the partition tests cut and heal), and the port its event bus binds to. Each 0 means
 * "as bound": no forwarder.
 *
 * @param memberPublicPort port advertised for the Hazelcast member ({@code cluster.public.port}); 0: its own port
 * @param busPort port the event bus binds to ({@code cluster.bus.port}); 0: a free port chosen at start
 * @param busPublicPort port advertised for the event bus ({@code cluster.bus.public.port}); 0: the bound port
 */
public record ClusterPorts(int memberPublicPort, int busPort, int busPublicPort) {

    /** No forwarder, an event-bus port chosen at start. */
    public static final ClusterPorts DIRECT = new ClusterPorts(0, 0, 0);

    /** Validates. */
    public ClusterPorts {
        if (busPublicPort != 0 && busPort == 0) {
            throw new IllegalArgumentException("an advertised event-bus port (" + busPublicPort
                    + ") needs a fixed event-bus port to forward to");
        }
    }
}
