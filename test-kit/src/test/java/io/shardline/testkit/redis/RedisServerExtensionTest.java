package io.shardline.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The extension: one server per class, injected everywhere, shared with nested classes, stopped after all. */
@RedisTest(aof = true)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisServerExtensionTest {

    private static long pidOfClassServer;

    @BeforeAll
    static void recordPid(RedisServer server) {
        pidOfClassServer = server.pid();
    }

    @AfterAll
    static void serverIsStillUpUntilAfterAll(RedisServer server) {
        assertThat(server.isRunning()).isTrue();
    }

    @Test
    @Order(1)
    void injectsARunningServerWithAof(RedisServer server) throws IOException {
        assertThat(server.aof()).isTrue();
        assertThat(server.pid()).isEqualTo(pidOfClassServer);
        try (RespProbe probe = server.probe()) {
            assertThat(probe.call("CONFIG", "GET", "appendonly")).asList().containsExactly("appendonly", "yes");
            probe.call("SET", "shared", "1");
        }
    }

    @Test
    @Order(2)
    void theSameServerServesEveryTestOfTheClass(RedisServer server) throws IOException {
        try (RespProbe probe = server.probe()) {
            assertThat(probe.call("GET", "shared")).isEqualTo("1");
        }
    }

    @Nested
    class NestedTests {
        @Test
        void nestedClassesShareTheEnclosingServer(RedisServer server) {
            assertThat(server.pid()).isEqualTo(pidOfClassServer);
        }
    }
}
