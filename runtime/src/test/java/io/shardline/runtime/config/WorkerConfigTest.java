package io.shardline.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.config.ConfigError;
import io.shardline.api.config.Placeholders;
import io.shardline.api.config.RawConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerConfigTest {

    private static final Placeholders ENV = new Placeholders(n -> n.equals("TOKEN") ? "t0ken" : null);

    @Test
    void shippedWorkerPropertiesIsValid() {
        WorkerConfig config = WorkerConfig.load(Path.of("..", "config", "worker.properties"), ENV);
        assertEquals("shardline", config.clusterName());
        assertEquals("127.0.0.1", config.restBind());
        assertEquals(10_000, config.sessionTimeoutMs());
        assertEquals(1_000, config.heartbeatIntervalMs());
        assertThat(config.clusterMembers()).allMatch(m -> m.startsWith("127.0.0.1:"));
    }

    @Test
    void defaultWorkerIdIsHostAndPort() {
        WorkerConfig config = WorkerConfig.of(RawConfig.of(Map.of("cluster.port", "5799")), ENV);
        assertThat(config.workerId()).endsWith("-5799");
        assertEquals("w1", WorkerConfig.of(RawConfig.of(Map.of("worker.id", "w1")), ENV).workerId());
    }

    @Test
    void everyProblemIsListedWithLine() {
        String text = String.join("\n",
                "cluster.name=bad name",
                "cluster.port=70000",
                "session.timeout.ms=2000",
                "heartbeat.interval.ms=1000",
                "rest.bind=0.0.0.0",
                "redis.url=redis://127.0.0.1:6379",
                "rest.prot=8080",
                "cluster.members=127.0.0.1:5701-5703");
        List<ConfigError> errors = WorkerConfig.DEFINITION.validate(RawConfig.parse(text, "worker.properties", null), ENV);
        assertThat(errors).extracting(ConfigError::toString).containsExactly(
                "worker.properties:1: cluster.name = \"bad name\": 'bad name' is not a name of letters, digits, '.', '_', '-'",
                "worker.properties:2: cluster.port = \"70000\": must be between 1 and 65535",
                "worker.properties:7: rest.prot = \"8080\": unknown key (did you mean 'rest.port'?)",
                "worker.properties:8: cluster.members = \"127.0.0.1:5701-5703\": '127.0.0.1:5701-5703' is not host:port",
                "worker.properties:4: heartbeat.interval.ms = \"1000\": must be at most a third of session.timeout.ms "
                        + "(a member must be able to miss two heartbeats without being expired)",
                "worker.properties:5: rest.bind = \"0.0.0.0\": a non-loopback address requires rest.auth.token "
                        + "(anyone who can reach the port could otherwise stop listeners)");
    }

    @Test
    void nonLoopbackRestWithTokenIsFine() {
        WorkerConfig config = WorkerConfig.of(RawConfig.of(Map.of("rest.bind", "0.0.0.0",
                "rest.auth.token", "${env:TOKEN}")), ENV);
        assertEquals("t0ken", config.restAuthToken().orElseThrow().value());
        assertThat(config.values().toString()).doesNotContain("t0ken");
    }

    @Test
    void clusterSecretIsLongAndHiddenAndTlsFilesComeTogether(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path pem = java.nio.file.Files.writeString(dir.resolve("w.pem"), "x");
        List<ConfigError> errors = WorkerConfig.DEFINITION.validate(RawConfig.parse("cluster.secret=short\n"
                + "cluster.tls.key.path=" + pem + "\ncluster.tls.cert.path=" + pem + "\n", "w", null), ENV);
        assertThat(errors).extracting(ConfigError::toString).containsExactly(
                "w:1: cluster.secret = \"[hidden]\": is shorter than 16 characters",
                "w:2: cluster.tls.key.path = \"" + pem + "\": cluster.tls.key.path, cluster.tls.cert.path and "
                        + "cluster.tls.ca.path go together: set all three or none");
        WorkerConfig config = WorkerConfig.of(RawConfig.of(Map.of("cluster.secret", "${env:TOKEN}-and-more-chars",
                "cluster.tls.key.path", pem.toString(), "cluster.tls.cert.path", pem.toString(),
                "cluster.tls.ca.path", pem.toString())), ENV);
        assertThat(config.clusterSecurity().tls()).isTrue();
        assertEquals("t0ken-and-more-chars", config.clusterSecurity().secret().value());
        assertThat(config.values().describe().toString()).doesNotContain("t0ken");
    }

    @Test
    void forwardedClusterPortsAreAdvertisedAndAnAdvertisedBusPortNeedsAFixedOne() {
        List<ConfigError> errors = WorkerConfig.DEFINITION.validate(RawConfig.parse("cluster.bus.public.port=7001\n",
                "w", null), ENV);
        assertThat(errors).extracting(ConfigError::toString).containsExactly("w:1: cluster.bus.public.port = \"7001\": "
                + "requires cluster.bus.port (a forwarder needs a fixed port to forward to)");
        WorkerConfig config = WorkerConfig.of(RawConfig.of(Map.of("cluster.public.port", "7000", "cluster.bus.port",
                "6001", "cluster.bus.public.port", "7001")), ENV);
        assertThat(config.clusterPorts()).isEqualTo(new io.shardline.runtime.cluster.ClusterPorts(7000, 6001, 7001));
        assertThat(WorkerConfig.of(RawConfig.of(Map.of()), ENV).clusterPorts())
                .isEqualTo(io.shardline.runtime.cluster.ClusterPorts.DIRECT);
    }
}
