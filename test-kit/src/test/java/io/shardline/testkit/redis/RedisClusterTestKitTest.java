package io.shardline.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/** The {@link RedisCluster} fixture forms a real three-primary cluster, routes keys, heals and leaves no process behind. */
@RedisClusterTest
class RedisClusterTestKitTest {

    static final List<Long> PROBE_PIDS = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Test
    void threePrimariesShareTheSlotsAndAnswerForTheirKeysOnly(RedisCluster cluster) throws IOException {
        assertThat(cluster.nodes()).hasSize(3);
        assertThat(cluster.seedUris()).allMatch(u -> u.startsWith("redis://127.0.0.1:"));
        Set<Integer> owners = new HashSet<>();
        for (int i = 0; i < 16; i++) {
            String key = "{orders:" + i + "}";
            RedisServer owner = cluster.ownerOf(key);
            owners.add(owner.port());
            try (RespProbe probe = owner.probe()) {
                assertThat(probe.call("SET", key, "v")).isEqualTo("OK");
            }
            RedisServer other = cluster.nodes().stream().filter(n -> n != owner).findFirst().orElseThrow();
            try (RespProbe probe = other.probe()) {
                RespProbe.RedisErrorReply moved = org.junit.jupiter.api.Assertions.assertThrows(
                        RespProbe.RedisErrorReply.class, () -> probe.call("GET", key));
                assertThat(moved.getMessage()).startsWith("MOVED " + cluster.slotOf(key) + " 127.0.0.1:" + owner.port());
            }
        }
        assertThat(owners).as("16 shard keys spread over all three primaries").hasSize(3);
    }

    @Test
    void aRestartedNodeRejoinsWithItsSlotsButWithoutItsData(RedisCluster cluster) throws IOException {
        String key = "{restart-probe}";
        RedisServer owner = cluster.ownerOf(key);
        try (RespProbe probe = owner.probe()) {
            probe.call("SET", key, "v");
        }
        owner.kill();
        owner.startAgain();
        cluster.awaitHealthy(Duration.ofSeconds(30));
        assertThat(cluster.ownerOf(key).port()).isEqualTo(owner.port());
        try (RespProbe probe = owner.probe()) {
            assertThat(probe.call("GET", key)).isNull();
        }
    }

    @RedisClusterTest(primaries = 2)
    static class Probe {
        @Test
        void records(RedisCluster cluster) {
            cluster.nodes().forEach(n -> PROBE_PIDS.add(n.pid()));
        }
    }

    @Test
    void theExtensionStopsEveryNodeAfterTheClass() {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(Probe.class))
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);

        assertThat(listener.getSummary().getTestsSucceededCount()).isEqualTo(1);
        assertThat(PROBE_PIDS).hasSize(2);
        assertThat(PROBE_PIDS).allMatch(pid -> !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }
}
