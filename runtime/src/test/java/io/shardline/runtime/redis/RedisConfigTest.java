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
}
