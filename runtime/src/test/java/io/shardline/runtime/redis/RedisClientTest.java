package io.shardline.runtime.redis;

import static io.shardline.runtime.testing.Await.eventually;
import static io.shardline.runtime.testing.Await.failure;
import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RedisTest
class RedisClientTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private Vertx vertx;
    /** Default timeout (2 s): a cold JVM's first connect can take longer than a short timeout. */
    private RedisClient client;
    /** Created once the JVM is warm, with a short timeout for the timeout tests. */
    private RedisClient fast;

    @BeforeEach
    void start(RedisServer redis) {
        vertx = Vertx.vertx();
        client = result(RedisClient.connect(vertx, RedisConfig.standalone(redis.uri()), new SplittableRandom(42)), WAIT);
        RedisConfig shortTimeout = RedisConfig.standalone(redis.uri()).withCommandTimeoutMs(500);
        fast = result(RedisClient.connect(vertx, shortTimeout, new SplittableRandom(43)), WAIT);
    }

    @AfterEach
    void stop() {
        result(client.close(), WAIT);
        result(fast.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    @Test
    void detectsServerVersionAndRunId(RedisServer redis) {
        RedisServerInfo info = client.serverInfo();
        assertEquals(redis.version().toString(), info.version());
        assertThat(info.runId()).hasSize(40);
        assertEquals(info.supportsXackdel(), client.supportsXackdel());
        assertEquals("PONG", result(client.send(Request.cmd(Command.PING)), WAIT).toString());
    }

    @Test
    void pooledCommandTimesOut() {
        Throwable e = failure(fast.send(Request.cmd(Command.BLPOP).arg("nothing").arg(3)), WAIT);
        assertThat(e).isInstanceOf(RedisTimeoutException.class)
                .hasMessage("Redis command BLPOP did not complete within 500 ms");
    }

    @Test
    void dedicatedConnectionReconnectsAfterTimeout() {
        ReconnectingConnection conn = fast.dedicated("test-timeout");
        try {
            result(conn.whenConnected(), WAIT);
            Throwable e = failure(conn.send(Request.cmd(Command.BLPOP).arg("nothing").arg(3)), WAIT);
            assertThat(e).isInstanceOf(RedisTimeoutException.class);
            assertEquals("PONG", eventually(() -> conn.send(Request.cmd(Command.PING)), WAIT, 20).toString());
            assertEquals(2, conn.connects());
        } finally {
            result(conn.close(), WAIT);
        }
        assertEquals(ReconnectingConnection.State.CLOSED, conn.state());
        assertThat(failure(conn.send(Request.cmd(Command.PING)), WAIT)).isInstanceOf(RedisDisconnectedException.class);
    }

    @Test
    void commandsWorkAgainAfterRedisRestart(RedisServer redis) {
        ReconnectingConnection conn = client.dedicated("test-restart");
        try {
            result(conn.whenConnected(), WAIT);
            String runIdBefore = client.serverInfo().runId();
            result(client.send(Request.cmd(Command.SET).arg("k").arg("v")), WAIT);

            redis.restart();

            assertEquals("PONG", eventually(() -> conn.send(Request.cmd(Command.PING)), WAIT, 20).toString());
            assertThat(conn.connects()).isGreaterThanOrEqualTo(2);
            assertEquals("PONG", eventually(() -> client.send(Request.cmd(Command.PING)), WAIT, 20).toString());
            RedisServerInfo after = result(client.refreshServerInfo(), WAIT);
            assertThat(after.runId()).isNotEqualTo(runIdBefore);
        } finally {
            result(conn.close(), WAIT);
        }
    }

    @Test
    void unreachableServerFailsConnectWithinTimeout() {
        RedisConfig config = RedisConfig.standalone("redis://127.0.0.1:1").withCommandTimeoutMs(300);
        Throwable e = failure(RedisClient.connect(vertx, config, new SplittableRandom(1)), WAIT);
        assertThat(e).isNotNull();
    }
}
