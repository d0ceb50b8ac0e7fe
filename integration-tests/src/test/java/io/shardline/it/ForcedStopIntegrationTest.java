package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The two ways a graceful stop is cut short (docs/operations.md, "Scaling out and in"), on a worker JVM from the built
 * distribution whose handler never finishes: a webhook-sink listener posting to a loopback HTTP server that
 * takes every request and never answers, with {@code release.inflight=finish}, so the member's leave waits for
 * the batch in flight. A second SIGTERM forces the exit at once (exit code 1); without it the stop gives up
 * after {@code rebalance.timeout.ms} and exits 1, not 0 and not earlier.
 *
 * <p>Tagged {@code integration}, part of the default build (two worker starts). Run it alone with
 * {@code mvn -B -ntp verify -pl integration-tests -am -Dtest=ForcedStopIntegrationTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class ForcedStopIntegrationTest {

    private static final Duration JOIN = Duration.ofSeconds(150);
    private static final int REBALANCE_MS = 4_000;

    private ItFleet fleet;
    private HttpServer hangingWebhook;
    private final List<HttpExchange> held = new CopyOnWriteArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
        if (hangingWebhook != null) {
            held.forEach(HttpExchange::close);
            hangingWebhook.stop(0);
        }
    }

    @Test
    void aSecondSigtermOrTheRebalanceTimeoutForcesTheExit(RedisServer redis) throws Exception {
        hangingWebhook = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        hangingWebhook.createContext("/", exchange -> {
            requests.incrementAndGet();
            held.add(exchange); // never answered: the handler call stays in flight
        });
        hangingWebhook.setExecutor(Executors.newCachedThreadPool());
        hangingWebhook.start();

        fleet = ItFleet.create("forced-stop");
        fleet.listener("hooks", "handler=webhook-sink",
                "handler.config.url=http://127.0.0.1:" + hangingWebhook.getAddress().getPort() + "/hook",
                "handler.config.request.timeout.ms=600000", "handler.config.retries=0",
                "handler.timeout.ms=600000", "release.inflight=finish",
                "streams=hooks:1", "group=hooks", "concurrency=1", "start.from=earliest");
        List<Integer> ports = FreePorts.take(2);
        Map<String, String> settings = ItFleet.withPorts(fleet.commonSettings(ports.subList(0, 1)), ports.get(0),
                ports.get(1));
        settings.put("redis.url", redis.uri());
        settings.put("rebalance.timeout.ms", Integer.toString(REBALANCE_MS));
        StreamProducer.produce(redis, "hooks", 1, 5);

        // 1. A second SIGTERM while the graceful stop waits for the handler: exit 1 at once.
        WorkerProcess first = startWithHandlerInFlight("w0", settings, 1);
        first.terminate();
        first.await("stopping gracefully", Duration.ofSeconds(30));
        long secondAt = System.nanoTime();
        first.terminate();
        assertThat(first.waitExit(Duration.ofSeconds(10))).as("exit code after a second SIGTERM\n%s", first.tail())
                .isEqualTo(1);
        long forcedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - secondAt);
        System.out.println("FIGURE second_sigterm_to_exit_ms=" + forcedMs);
        assertThat(forcedMs).as("exit after the second SIGTERM, well before rebalance.timeout.ms")
                .isLessThan(REBALANCE_MS);
        assertThat(first.find("forcing exit")).isPresent();

        // 2. One SIGTERM: the stop gives up after rebalance.timeout.ms and exits 1 (not 0, not before it).
        WorkerProcess second = startWithHandlerInFlight("w0-again", settings, requests.get() + 1);
        long termAt = System.nanoTime();
        second.terminate();
        int code = second.waitExit(Duration.ofMillis(REBALANCE_MS + 20_000L));
        long stopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - termAt);
        System.out.println("FIGURE sigterm_to_forced_exit_ms=" + stopMs + " (rebalance.timeout.ms " + REBALANCE_MS + ")");
        assertThat(code).as("exit code when the graceful stop did not finish\n%s", second.tail()).isEqualTo(1);
        assertThat(stopMs).as("gave up before rebalance.timeout.ms").isGreaterThanOrEqualTo(REBALANCE_MS);
    }

    /** Starts {@code fileId} as worker w0 and waits until its handler has a request open at the webhook. */
    private WorkerProcess startWithHandlerInFlight(String fileId, Map<String, String> settings, int requestsSeen)
            throws IOException {
        WorkerProcess w = fleet.start(fileId, "w0", settings);
        w.await("joined cluster", JOIN);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (requests.get() < requestsSeen) {
            assertThat(System.nanoTime()).as("a webhook request from %s within 60 s\n%s", fileId, w.tail())
                    .isLessThan(deadline);
            assertThat(w.process.isAlive()).as("%s alive\n%s", fileId, w.tail()).isTrue();
            WorkerProcess.pause(50);
        }
        return w;
    }
}
