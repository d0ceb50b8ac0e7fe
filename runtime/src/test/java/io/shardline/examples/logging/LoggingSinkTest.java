package io.shardline.examples.logging;

import static io.shardline.examples.PluginHarness.await;
import static io.shardline.examples.PluginHarness.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.examples.PluginHarness;
import io.shardline.runtime.listener.StandaloneListener;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@RedisTest
class LoggingSinkTest {

    @TempDir
    Path dir;

    @Test
    void logsAndCountsEveryRecordOfEveryShard(RedisServer server) throws Exception {
        try (PluginHarness h = new PluginHarness(server.uri(), dir)) {
            StandaloneListener listener = h.start("log", """
                    handler = logging-sink
                    streams = orders:3
                    start.from = earliest
                    handler.config.log.every = 10
                    """, 1);
            for (int i = 0; i < 90; i++) {
                h.xadd("{orders:" + (i % 3) + "}", "n", Integer.toString(i));
            }
            waitUntil("90 records logged", 15_000, () -> h.counter("shardline.listener.log.handler.records") == 90);
            assertThat(h.registry.getGauges().get("shardline.listener.log.handler.records.seen").getValue()).isEqualTo(90L);
            await(listener.close());
        }
    }
}
