package io.shardline.testkit.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The server lifecycle on its own: start, connect, restart, kill, stop, and no process left behind. */
class RedisServerTest {

    @Test
    void startsOnLoopbackAndReportsItsVersion() throws IOException {
        try (RedisServer server = RedisServer.start(false)) {
            assertThat(server.uri()).isEqualTo("redis://127.0.0.1:" + server.port());
            assertThat(server.version().major()).isGreaterThanOrEqualTo(6);
            try (RespProbe probe = server.probe()) {
                assertThat(probe.call("PING")).isEqualTo("PONG");
                assertThat(probe.call("CONFIG", "GET", "appendonly")).isEqualTo(List.of("appendonly", "no"));
                assertThat(probe.call("CONFIG", "GET", "bind")).isEqualTo(List.of("bind", "127.0.0.1"));
            }
        }
    }

    @Test
    void closeStopsTheProcessByPid() {
        RedisServer server = RedisServer.start(false);
        long pid = server.pid();
        assertThat(ProcessHandle.of(pid)).hasValueSatisfying(h -> assertThat(h.isAlive()).isTrue());

        server.close();

        assertThat(server.isRunning()).isFalse();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThatThrownBy(server::probe).isInstanceOf(IOException.class);
    }

    @Test
    void restartKeepsThePortAndGivesANewProcess() throws IOException {
        try (RedisServer server = RedisServer.start(false)) {
            int port = server.port();
            long pid = server.pid();

            server.restart();

            assertThat(server.port()).isEqualTo(port);
            assertThat(server.pid()).isNotEqualTo(pid);
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            try (RespProbe probe = server.probe()) {
                assertThat(probe.call("PING")).isEqualTo("PONG");
            }
        }
    }

    @Test
    void withoutPersistenceARestartLosesData() throws IOException {
        try (RedisServer server = RedisServer.start(false)) {
            try (RespProbe probe = server.probe()) {
                probe.call("SET", "k", "v");
            }
            server.restart();
            try (RespProbe probe = server.probe()) {
                assertThat(probe.call("GET", "k")).isNull();
            }
        }
    }

    @Test
    void withAofDataSurvivesAKill() throws IOException {
        try (RedisServer server = RedisServer.start(true)) {
            try (RespProbe probe = server.probe()) {
                probe.call("XADD", "orders:0", "*", "n", "1");
            }
            long pid = server.pid();

            server.kill();
            assertThat(server.isRunning()).isFalse();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();

            server.startAgain();
            try (RespProbe probe = server.probe()) {
                assertThat(probe.call("XLEN", "orders:0")).isEqualTo(1L);
            }
        }
    }

    @Test
    void startReturnsWhenTheServerAnswersNotAtItsTimeout() {
        // Not a timing assertion on the machine's speed: a wait loop that always ran into its start timeout would
        // take at least that long (the bound is the timeout itself).
        long start = System.nanoTime();
        try (RedisServer server = RedisServer.start(false)) {
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("start returned before its %s timeout",
                    RedisServer.START_TIMEOUT).isLessThan(RedisServer.START_TIMEOUT);
        }
    }

    @Test
    void parsesTheVersionFromInfo() {
        String info = "# Server\r\nredis_version:7.0.15\r\nredis_git_sha1:00000000\r\n";
        assertThat(RedisServer.parseVersion(info)).isEqualTo(new RedisVersion(7, 0, 15));
        assertThat(RedisVersion.parse("8.2.1").atLeast(8, 2)).isTrue();
        assertThat(RedisVersion.parse("7.0.15").atLeast(8, 2)).isFalse();
        assertThatThrownBy(() -> RedisVersion.parse("seven")).hasMessageContaining("seven");
    }
}
