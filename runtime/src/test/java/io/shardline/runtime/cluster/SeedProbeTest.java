package io.shardline.runtime.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.net.FreePorts;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The seed probe before a worker's Hazelcast start: which seed, if any, accepts a connection ({@link JoinPlanTest}). */
class SeedProbeTest {

    @Test
    void findsTheSeedThatListensAmongAbsentOnes() throws Exception {
        List<Integer> ports = FreePorts.take(3);
        try (ServerSocket open = new ServerSocket(ports.get(1), 50, InetAddress.getLoopbackAddress())) {
            String listening = "127.0.0.1:" + open.getLocalPort();
            assertThat(SeedProbe.listening(List.of("127.0.0.1:" + ports.get(0), listening, "127.0.0.1:" + ports.get(2)),
                    500)).contains(listening);
        }
    }

    @Test
    void findsNoneWhenNobodyListens() {
        List<Integer> ports = FreePorts.take(2);
        assertThat(SeedProbe.listening(List.of("127.0.0.1:" + ports.get(0), "127.0.0.1:" + ports.get(1)), 500))
                .isEmpty();
        assertThat(SeedProbe.listening(List.of(), 500)).isEmpty();
        assertThat(SeedProbe.listening(List.of("no-port", "127.0.0.1:x"), 500)).isEmpty();
    }
}
