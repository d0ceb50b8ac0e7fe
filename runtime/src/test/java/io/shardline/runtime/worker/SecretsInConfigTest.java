package io.shardline.runtime.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.config.ConfigException;
import io.shardline.api.config.Placeholders;
import io.shardline.api.config.RawConfig;
import io.shardline.runtime.config.WorkerConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** No secret of a worker file reaches the start line or a configuration error; loopback is decided by address. */
class SecretsInConfigTest {

    private static final String SECRET = "hunter2-s3cret";

    @Test
    void urlPasswordsAreMaskedInTheStartLineAndInRedisSettings() {
        WorkerConfig config = WorkerConfig.of(RawConfig.of(Map.of("redis.url", "redis://app:" + SECRET
                + "@127.0.0.1:6379/0")), Placeholders.system());
        assertEquals("redis://app:[hidden]@127.0.0.1:6379/0", config.values().describe().get("redis.url"));
        assertThat(config.values().describe().toString()).doesNotContain(SECRET);
        assertThat(config.redis().toString()).doesNotContain(SECRET).contains("redis://app:[hidden]@127.0.0.1");
        assertEquals("redis://app:" + SECRET + "@127.0.0.1:6379/0", config.redis().url(), "the client gets it");
    }

    @Test
    void configurationErrorsHideSecretsOfUnknownAndInvalidKeys() {
        assertThatThrownBy(() -> WorkerConfig.of(RawConfig.parse("redis.passwrd = " + SECRET + "\nrest.auth.tokn = "
                + SECRET + "\nredis.pwd = " + SECRET + "\nrest.prot = 8080\nredis.url = redis://:" + SECRET + "@\n",
                "worker.properties", null), Placeholders.system()))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET)
                        .contains("redis.passwrd = \"[hidden]\": unknown key")
                        .contains("rest.auth.tokn = \"[hidden]\"")
                        .contains("redis.pwd = \"[hidden]\"")
                        .contains("rest.prot = \"8080\": unknown key")
                        .contains("redis://:[hidden]@"));
    }

    @Test
    void allowedDirectoriesMustBeAbsolute() {
        assertThatThrownBy(() -> WorkerConfig.of(RawConfig.of(Map.of("rest.config.allowed.dirs", "/etc/shardline,secrets")),
                Placeholders.system())).hasMessageContaining("rest.config.allowed.dirs")
                .hasMessageContaining("'secrets' is not an absolute path");
        assertEquals(List.of("/etc/shardline"), WorkerConfig.of(RawConfig.of(Map.of("rest.config.allowed.dirs",
                "/etc/shardline")), Placeholders.system()).restConfigAllowedDirs());
    }

    @Test
    void loopbackIsDecidedByAddress() {
        assertThat(WorkerConfig.isLoopback("127.0.0.1")).isTrue();
        assertThat(WorkerConfig.isLoopback("127.1.2.3")).isTrue();
        assertThat(WorkerConfig.isLoopback("0:0:0:0:0:0:0:1")).isTrue();
        assertThat(WorkerConfig.isLoopback("[::1]")).isTrue();
        assertThat(WorkerConfig.isLoopback("localhost")).isTrue();
        assertThat(WorkerConfig.isLoopback("127.evil.invalid")).isFalse();
        assertThat(WorkerConfig.isLoopback("0.0.0.0")).isFalse();
        assertThat(WorkerConfig.isLoopback("10.1.2.3")).isFalse();
        assertThat(WorkerConfig.isLoopback("")).isFalse();
        assertThatThrownBy(() -> WorkerConfig.of(RawConfig.of(Map.of("rest.bind", "127.evil.invalid")),
                Placeholders.system())).hasMessageContaining("a non-loopback address requires rest.auth.token");
        assertEquals("0:0:0:0:0:0:0:1", WorkerConfig.of(RawConfig.of(Map.of("rest.bind", "0:0:0:0:0:0:0:1")),
                Placeholders.system()).restBind());
        WorkerConfig.of(RawConfig.of(Map.of("cluster.members", "[::1]:5701")), Placeholders.system());
    }
}
