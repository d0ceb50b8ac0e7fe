package io.shardline.examples.webhook;

import static io.shardline.examples.PluginHarness.await;
import static io.shardline.examples.PluginHarness.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.shardline.examples.PluginHarness;
import io.shardline.runtime.listener.StandaloneListener;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@RedisTest
class WebhookSinkTest {

    @TempDir
    Path dir;

    @Test
    void postsBatchesWithRetriesIdempotencyKeysAndFencingTokens(RedisServer server) throws Exception {
        List<String> bodies = new CopyOnWriteArrayList<>();
        List<String> tokens = new CopyOnWriteArrayList<>();
        List<String> keys = new CopyOnWriteArrayList<>();
        AtomicInteger requests = new AtomicInteger();
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/hook", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            int status = requests.incrementAndGet() % 2 == 1 ? 503 : 200; // every first try fails
            if (status == 200) {
                bodies.add(body);
                tokens.add(exchange.getRequestHeaders().getFirst("X-Shardline-Fencing-Token"));
                keys.add(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        http.start();
        try (PluginHarness h = new PluginHarness(server.uri(), dir)) {
            for (int i = 0; i < 5; i++) {
                h.xadd("{orders:0}", "__key", "k\"" + i, "n", Integer.toString(i));
            }
            StandaloneListener listener = h.start("hook", """
                    handler = webhook-sink
                    streams = orders:1
                    start.from = earliest
                    batch.size = 5
                    handler.config.url = http://127.0.0.1:%d/hook
                    handler.config.retry.backoff.ms = 1
                    """.formatted(http.getAddress().getPort()), 7);
            waitUntil("5 records posted", 15_000, () -> h.counter("shardline.listener.hook.handler.posted") == 5);
            assertThat(bodies).hasSize(1);
            assertThat(bodies.get(0)).startsWith("[{\"stream\":\"orders\",\"shard\":0,\"id\":\"")
                    .contains("\"key\":\"k\\\"0\"").contains("\"fields\":{\"__key\":\"k\\\"4\",\"n\":\"4\"}}]");
            assertThat(tokens).containsExactly("orders:0@7");
            assertThat(keys.get(0)).startsWith("orders:0:").contains("..");
            assertThat(h.counter("shardline.listener.hook.handler.retries")).isEqualTo(1);
            await(listener.close());
        } finally {
            http.stop(0);
        }
    }

}
