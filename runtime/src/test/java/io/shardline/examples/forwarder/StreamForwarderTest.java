package io.shardline.examples.forwarder;

import static io.shardline.examples.PluginHarness.await;
import static io.shardline.examples.PluginHarness.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.examples.PluginHarness;
import io.shardline.runtime.listener.StandaloneListener;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@RedisTest
class StreamForwarderTest {

    @TempDir
    Path dir;

    @Test
    void forwardsShardByShardAndRedeliveryAddsNothing(RedisServer server) throws Exception {
        try (PluginHarness h = new PluginHarness(server.uri(), dir)) {
            String file = """
                    handler = stream-forwarder
                    streams = orders:2
                    start.from = earliest
                    batch.size = 7
                    handler.config.target.stream = copy
                    handler.config.redis.url = %s
                    """.formatted(server.uri());
            List<String> ids0 = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                String id = h.xadd("{orders:" + (i % 2) + "}", "__key", "k" + i, "n", Integer.toString(i));
                if (i % 2 == 0) {
                    ids0.add(id);
                }
            }
            StandaloneListener first = h.start("fwd", file, 1);
            waitUntil("30 forwarded", 15_000, () -> h.counter("shardline.listener.fwd.handler.forwarded") == 30);
            await(first.close());
            assertThat(ids(h.send(Request.cmd(Command.XRANGE).arg("{copy:0}").arg("-").arg("+")))).containsExactlyElementsOf(ids0);

            // Replay everything (as after a crash before the acks): the group starts over from 0.
            h.send(Request.cmd(Command.XGROUP).arg("SETID").arg("{orders:0}").arg("fwd").arg("0"));
            h.send(Request.cmd(Command.XGROUP).arg("SETID").arg("{orders:1}").arg("fwd").arg("0"));
            StandaloneListener second = h.start("fwd", file, 2);
            waitUntil("30 duplicates skipped", 15_000, () -> h.counter("shardline.listener.fwd.handler.duplicates.skipped") == 30);
            assertThat(h.send(Request.cmd(Command.XLEN).arg("{copy:0}")).toLong()).isEqualTo(15);
            assertThat(h.send(Request.cmd(Command.XLEN).arg("{copy:1}")).toLong()).isEqualTo(15);
            assertThat(h.counter("shardline.listener.fwd.handler.forwarded")).isEqualTo(30);
            await(second.close());
        }
    }

    private static List<String> ids(Response entries) {
        List<String> ids = new ArrayList<>();
        entries.forEach(e -> ids.add(e.get(0).toString()));
        return ids;
    }
}
