package io.shardline.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigError;
import io.shardline.api.config.Placeholders;
import io.shardline.api.config.RawConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedisConfigTest {

    private static final ConfigDef DEF = RedisConfig.define(new ConfigDef());
    private static final Placeholders ENV = new Placeholders(n -> n.equals("PW") ? "secret" : null);

    @Test
    void defaultsAreLoopbackResp2() {
        RedisConfig config = RedisConfig.from(DEF.parse(RawConfig.of(Map.of()), ENV));
        assertEquals(RedisConfig.standalone("redis://127.0.0.1:6379"), config);
        assertThat(config.cluster()).isFalse();
    }

    @Test
    void passwordFromEnvironmentAndNeverPrinted() {
        RedisConfig config = RedisConfig.from(DEF.parse(RawConfig.of(Map.of("redis.password", "${env:PW}",
                "redis.url", "rediss://h:6380")), ENV));
        assertEquals("secret", config.password().value());
        assertThat(config.tlsEnabled()).isTrue();
        assertThat(config.toString()).doesNotContain("secret");
    }

    @Test
    void badValuesAreListed() {
        List<ConfigError> errors = DEF.validate(RawConfig.parse(
                "redis.url=http://h\nredis.cluster.urls=redis://a:1,nope\nredis.protocol=resp4\n", "w", null), ENV);
        assertThat(errors).extracting(ConfigError::toString).containsExactly(
                "w:1: redis.url = \"http://h\": must start with redis:// or rediss://",
                "w:2: redis.cluster.urls = \"redis://a:1,nope\": 'nope' must start with redis:// or rediss://",
                "w:3: redis.protocol = \"resp4\": 'resp4' is not one of [resp2, resp3]");
        assertThat(DEF.validate(RawConfig.parse("redis.url=redis://h:1\nredis.cluster.urls=redis://a:1\n", "w", null),
                ENV)).extracting(ConfigError::reason).containsExactly("set either redis.url or redis.cluster.urls, not both");
    }

    @Test
    void theTlsFlagMakesARedisUrlConnectAsRediss() {
        RedisConfig config = RedisConfig.from(DEF.parse(RawConfig.of(Map.of("redis.url", "redis://h:6380/2",
                "redis.tls.enabled", "true")), ENV));
        assertEquals("rediss://h:6380/2", config.connectUrl());
        assertEquals("redis://h:6380/2", RedisConfig.standalone("redis://h:6380/2").connectUrl());
    }

    @Test
    void clientKeyNeedsItsCertificateTlsAndReadableFiles(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path pem = java.nio.file.Files.writeString(dir.resolve("k.pem"), "x");
        assertThat(DEF.validate(RawConfig.parse("redis.tls.enabled=true\nredis.tls.key.path=" + pem + "\n", "w", null),
                ENV)).extracting(ConfigError::reason).containsExactly(
                "redis.tls.key.path and redis.tls.cert.path go together: set both or neither");
        assertThat(DEF.validate(RawConfig.parse("redis.tls.ca.path=" + pem + "\n", "w", null), ENV))
                .extracting(ConfigError::reason).containsExactly(
                        "TLS settings need TLS: set redis.tls.enabled=true or use a rediss:// URL");
        assertThat(DEF.validate(RawConfig.parse("redis.url=rediss://h:1\nredis.tls.ca.path=" + dir.resolve("none")
                + "\n", "w", null), ENV)).extracting(ConfigError::toString).containsExactly(
                "w:2: redis.tls.ca.path = \"" + dir.resolve("none") + "\": is not a file (" + dir.resolve("none") + ")");
        RedisConfig ok = RedisConfig.from(DEF.parse(RawConfig.of(Map.of("redis.url", "rediss://h:1",
                "redis.tls.key.path", pem.toString(), "redis.tls.cert.path", pem.toString())), ENV));
        assertEquals(pem.toString(), ok.tlsKeyPath());
    }
}
