package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A worker that cannot start says why in one line and exits with code 3, as docs/operations.md
 * ("Failure modes") and {@code StartWorker}'s Javadoc promise: Redis not reachable at start, and a second
 * worker on a host with the first one's {@code rest.port}. Never a stack trace on the console.
 */
@Tag("integration")
@RedisTest
class StartFailureIntegrationTest {

    private static final Duration JOIN = Duration.ofSeconds(150);
    /** Start-up, a few Redis connection attempts and leaving the cluster again; generous for a busy machine. */
    private static final Duration EXIT = Duration.ofSeconds(150);

    private ItFleet fleet;

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void redisUnreachableAtStartExits3NamingTheAddress() throws Exception {
        fleet = ItFleet.create("start-failure");
        List<Integer> ports = FreePorts.take(3);
        Map<String, String> settings = ItFleet.withPorts(fleet.commonSettings(ports.subList(0, 1)), ports.get(0),
                ports.get(1));
        String url = "redis://127.0.0.1:" + ports.get(2); // a free port: nobody listens there
        settings.put("redis.url", url);
        WorkerProcess w = fleet.start("w0", settings);
        assertThat(w.waitExit(EXIT)).as("exit code\n%s", w.tail()).isEqualTo(3);
        assertThat(w.find("start-worker: cannot reach Redis at " + url)).as("one line naming the address\n%s", w.tail())
                .isPresent();
        assertNoStackTrace(w);
    }

    @Test
    void aSecondWorkerOnTheSameRestPortExits3NamingTheKey(RedisServer redis) throws Exception {
        fleet = ItFleet.create("rest-port");
        List<Integer> ports = FreePorts.take(3);
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 2));
        common.put("redis.url", redis.uri());
        WorkerProcess first = fleet.start("w0", ItFleet.withPorts(common, ports.get(0), ports.get(2)));
        first.await("joined cluster", JOIN);
        WorkerProcess second = fleet.start("w1", ItFleet.withPorts(common, ports.get(1), ports.get(2)));
        assertThat(second.waitExit(EXIT)).as("exit code\n%s", second.tail()).isEqualTo(3);
        assertThat(second.find("rest.port")).as("the error names rest.port\n%s", second.tail()).isPresent();
        assertNoStackTrace(second);
        assertThat(first.process.isAlive()).as("the first worker keeps running\n%s", first.tail()).isTrue();
    }

    private static void assertNoStackTrace(WorkerProcess w) {
        assertThat(w.lines()).as("no stack trace on the console\n%s", w.tail())
                .noneMatch(l -> l.startsWith("\tat ") || l.startsWith("Caused by:"));
    }
}
