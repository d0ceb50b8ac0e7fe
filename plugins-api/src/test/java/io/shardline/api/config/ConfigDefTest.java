package io.shardline.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigDefTest {

    private static final Placeholders NO_ENV = new Placeholders(name -> null);

    private static ConfigDef def() {
        return new ConfigDef()
                .define("cluster.name", ConfigType.STRING, "shardline", Validator.nonEmpty(), Importance.HIGH,
                        "Cluster name.", "Cluster")
                .define("session.timeout.ms", ConfigType.INT, 10_000, Validator.between(1000, 60_000),
                        Importance.HIGH, "Session timeout.", "Group")
                .define("heartbeat.interval.ms", ConfigType.INT, "1000", Validator.atLeast(100),
                        Importance.MEDIUM, "Heartbeat interval.", "Group")
                .define("max.bytes", ConfigType.LONG, 5, Validator.any(), Importance.LOW, "Bytes.")
                .define("ratio", ConfigType.DOUBLE, 0.5, Validator.between(0.0, 1.0), Importance.LOW, "Ratio.")
                .define("tls.enabled", ConfigType.BOOLEAN, false, Validator.any(), Importance.LOW, "TLS.")
                .define("members", ConfigType.LIST, "a,b", Validator.nonEmpty(), Importance.LOW, "Members.")
                .define("mode", ConfigType.STRING, "fast", Validator.oneOf("fast", "safe"), Importance.LOW, "Mode.")
                .define("assignor.class", ConfigType.CLASS, null, Validator.any(), Importance.LOW, "Class.")
                .define("redis.password", ConfigType.PASSWORD, null, Validator.any(), Importance.HIGH, "Secret.")
                .defineRequired("redis.url", ConfigType.STRING, Validator.nonEmpty(), Importance.HIGH,
                        "Redis URL.", "Redis")
                .definePrefix("handler.", "Handler settings.")
                .require("heartbeat.interval.ms", "must be at most a third of session.timeout.ms",
                        v -> v.getInt("heartbeat.interval.ms") * 3 <= v.getInt("session.timeout.ms"));
    }

    @Test
    void defaultsAndTypedValues() {
        ConfigValues values = def().parse(RawConfig.of(Map.of("redis.url", "redis://127.0.0.1:6379",
                "members", " x , ,y ", "tls.enabled", "TRUE", "max.bytes", "9000000000")), NO_ENV);
        assertEquals("shardline", values.getString("cluster.name"));
        assertEquals(10_000, values.getInt("session.timeout.ms"));
        assertEquals(1000, values.getInt("heartbeat.interval.ms"));
        assertEquals(9_000_000_000L, values.getLong("max.bytes"));
        assertEquals(0.5, values.getDouble("ratio"));
        assertEquals(true, values.getBoolean("tls.enabled"));
        assertEquals(List.of("x", "y"), values.getList("members"));
        assertEquals(null, values.getPassword("redis.password"));
        assertThat(values.isSet("redis.url")).isTrue();
        assertThat(values.isSet("cluster.name")).isFalse();
    }

    @Test
    void everyErrorIsListedWithFileAndLine() {
        String text = String.join("\n",
                "# worker",
                "cluster.name=",
                "session.timeout.ms = abc",
                "heartbeat.interval.ms=50",
                "sesion.timeout.ms=10000",
                "mode=slow",
                "ratio=2",
                "redis.password=hunter2",
                "assignor.class=not a class",
                "handler.anything=goes");
        List<ConfigError> errors = def().validate(RawConfig.parse(text, "w.properties", null), NO_ENV);
        assertThat(errors).containsExactly(
                new ConfigError("cluster.name", "", "w.properties", 2, "must not be empty"),
                new ConfigError("session.timeout.ms", "abc", "w.properties", 3,
                        "not an int (a whole number between -2147483648 and 2147483647)"),
                new ConfigError("heartbeat.interval.ms", "50", "w.properties", 4, "must be at least 100"),
                new ConfigError("sesion.timeout.ms", "10000", "w.properties", 5,
                        "unknown key (did you mean 'session.timeout.ms'?)"),
                new ConfigError("mode", "slow", "w.properties", 6, "'slow' is not one of [fast, safe]"),
                new ConfigError("ratio", "2", "w.properties", 7, "must be between 0.0 and 1.0"),
                new ConfigError("assignor.class", "not a class", "w.properties", 9, "not a fully qualified class name"),
                new ConfigError("redis.url", null, "w.properties", 0, "required and not set (it has no default)"));
    }

    @Test
    void crossFieldRuleNamesTheBlamedKey() {
        RawConfig raw = RawConfig.parse("redis.url=r\nsession.timeout.ms=3000\nheartbeat.interval.ms=2000\n",
                "w.properties", null);
        assertThatThrownBy(() -> def().parse(raw, NO_ENV))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.errors()).containsExactly(
                        new ConfigError("heartbeat.interval.ms", "2000", "w.properties", 3,
                                "must be at most a third of session.timeout.ms")))
                .hasMessageContaining("w.properties:3: heartbeat.interval.ms = \"2000\"");
    }

    @Test
    void passwordNeverPrintedInErrorsOrToString() {
        ConfigDef def = new ConfigDef()
                .define("token", ConfigType.PASSWORD, null, Validator.custom("8+ chars",
                        v -> ((Password) v).value().length() >= 8 ? java.util.Optional.empty()
                                : java.util.Optional.of("must have at least 8 characters")), Importance.HIGH, "T.");
        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                () -> def.parse(RawConfig.of(Map.of("token", "s3cret", "api.token", "xyz"))));
        assertThat(e.getMessage()).doesNotContain("s3cret").doesNotContain("xyz").contains("[hidden]");
        ConfigValues ok = def.parse(Map.of("token", "longsecret"));
        assertThat(ok.toString()).doesNotContain("longsecret").contains("token=[hidden]");
        assertEquals("longsecret", ok.getPassword("token").value());
    }

    @Test
    void placeholdersResolveAndUnsetOnesAreErrors() {
        Placeholders env = new Placeholders(name -> name.equals("REDIS_URL") ? "redis://h:1" : null);
        ConfigValues values = def().parse(RawConfig.of(Map.of("redis.url", "${env:REDIS_URL}")), env);
        assertEquals("redis://h:1", values.getString("redis.url"));
        List<ConfigError> errors = def().validate(RawConfig.of(Map.of("redis.url", "${env:NOPE}",
                "redis.password", "${env:PW}")), env);
        assertThat(errors).containsExactly(
                new ConfigError("redis.password", "[hidden]", null, 0, "environment variable PW is not set"),
                new ConfigError("redis.url", "${env:NOPE}", null, 0, "environment variable NOPE is not set"));
    }

    @Test
    void ruleReadingAnInvalidKeyIsSkipped() {
        List<ConfigError> errors = def().validate(RawConfig.of(Map.of("redis.url", "r",
                "session.timeout.ms", "x")), NO_ENV);
        assertThat(errors).extracting(ConfigError::key).containsExactly("session.timeout.ms");
    }

    @Test
    void prefixSubsetKeepsLines() {
        ConfigValues values = def().parse(RawConfig.parse("redis.url=r\nhandler.retries=3\n", "l.properties", null),
                NO_ENV);
        RawConfig handler = values.subset("handler.");
        assertEquals(new RawConfig.RawValue("retries", "3", "l.properties", 2), handler.get("retries").orElseThrow());
    }

    @Test
    void invalidDefinitionsFailFast() {
        assertThatThrownBy(() -> new ConfigDef().define("a", ConfigType.INT, 0, Validator.atLeast(1),
                Importance.LOW, "A."))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be at least 1");
        assertThatThrownBy(() -> new ConfigDef().define("a", ConfigType.INT, "x", Validator.any(),
                Importance.LOW, "A.")).hasMessageContaining("not an int");
        assertThatThrownBy(() -> new ConfigDef().define("Bad Name", ConfigType.INT, 1, Validator.any(),
                Importance.LOW, "A.")).hasMessageContaining("dotted lower-case");
        assertThatThrownBy(() -> def().define("redis.url", ConfigType.STRING, "x", Validator.any(),
                Importance.LOW, "A.")).hasMessageContaining("defined twice");
    }

    @Test
    void wrongTypedGetterIsAProgrammingError() {
        ConfigValues values = def().parse(Map.of("redis.url", "r"));
        assertThatThrownBy(() -> values.getInt("redis.url")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is a string, not a int");
        assertThatThrownBy(() -> values.getString("nope")).hasMessageContaining("not defined");
    }
}
