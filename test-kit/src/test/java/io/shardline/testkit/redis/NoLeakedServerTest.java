package io.shardline.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/** Runs a {@link RedisTest} class through the JUnit launcher and checks its server process is gone afterwards. */
class NoLeakedServerTest {

    static long seenPid;

    @RedisTest
    static class Probe {
        @Test
        void records(RedisServer server) {
            seenPid = server.pid();
        }
    }

    @Test
    void theExtensionStopsItsServerAfterTheClass() {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectClass(Probe.class))
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);

        assertThat(listener.getSummary().getTestsSucceededCount()).isEqualTo(1);
        assertThat(seenPid).isPositive();
        assertThat(ProcessHandle.of(seenPid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }
}
