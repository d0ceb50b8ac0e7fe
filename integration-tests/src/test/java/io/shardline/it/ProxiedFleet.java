package io.shardline.it;

import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.net.TcpCutProxy;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Workers of an {@link ItFleet} whose cluster ports (Hazelcast member port and event bus) are each behind a
 * {@link TcpCutProxy}: every worker advertises its proxies ({@code cluster.public.port},
 * {@code cluster.bus.public.port}) and the seed list names them, so all traffic between workers goes through them
 * and a test can cut one worker off ({@link #partition}) and {@link #heal} it, with Redis still reachable. The test
 * thread only.
 */
final class ProxiedFleet implements AutoCloseable {

    /** Per worker: Hazelcast port, its proxy, event-bus port, its proxy, REST port. */
    private static final int PORTS_PER_WORKER = 5;

    private final List<WorkerProcess> workers = new ArrayList<>();
    private final List<List<TcpCutProxy>> proxiesOf = new ArrayList<>();

    /**
     * Starts {@code count} workers {@code w0..} of {@code fleet} with {@code settings} (Redis and the like), one after
     * the other, each once the previous one joined (within {@code join}).
     */
    static ProxiedFleet start(ItFleet fleet, int count, Map<String, String> settings, Duration join)
            throws IOException {
        ProxiedFleet f = new ProxiedFleet();
        List<Integer> ports = FreePorts.take(PORTS_PER_WORKER * count);
        List<Integer> memberProxies = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            memberProxies.add(ports.get(PORTS_PER_WORKER * i + 1));
        }
        Map<String, String> common = fleet.commonSettings(memberProxies);
        common.putAll(settings);
        for (int i = 0; i < count; i++) {
            int base = PORTS_PER_WORKER * i;
            f.proxiesOf.add(List.of(TcpCutProxy.start(ports.get(base + 1), ports.get(base)),
                    TcpCutProxy.start(ports.get(base + 3), ports.get(base + 2))));
            Map<String, String> s = ItFleet.withPorts(common, ports.get(base), ports.get(base + 4));
            s.put("cluster.public.port", Integer.toString(ports.get(base + 1)));
            s.put("cluster.bus.port", Integer.toString(ports.get(base + 2)));
            s.put("cluster.bus.public.port", Integer.toString(ports.get(base + 3)));
            f.workers.add(fleet.start("w" + i, s));
            f.workers.get(i).await("joined cluster", join);
        }
        return f;
    }

    /** The workers, in start order. */
    List<WorkerProcess> workers() {
        return List.copyOf(workers);
    }

    /** Cuts {@code target} off: its own proxies, and the connections it opened through the others'. */
    void partition(WorkerProcess target) {
        for (int i = 0; i < workers.size(); i++) {
            for (TcpCutProxy p : proxiesOf.get(i)) {
                if (workers.get(i) == target) {
                    p.cut();
                } else {
                    p.cutFrom(target.process.pid());
                }
            }
        }
    }

    /** Ends every partition. */
    void heal() {
        proxiesOf.forEach(ps -> ps.forEach(TcpCutProxy::heal));
    }

    /** Stops the proxies (the fleet stops the workers). */
    @Override
    public void close() {
        proxiesOf.forEach(ps -> ps.forEach(TcpCutProxy::close));
    }
}
