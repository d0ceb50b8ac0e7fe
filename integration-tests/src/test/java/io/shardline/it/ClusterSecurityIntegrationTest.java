package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.config.Password;
import io.shardline.runtime.cluster.ClusterSecurity;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.tls.TestCertificates;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Worker JVMs from the distribution with the cluster ports locked down (docs/security.md, "Cluster port"): two workers with
 * the same {@code cluster.secret} and event-bus TLS certificates of one CA form a cluster and share a group's shards
 * (heartbeats and coordinator answers cross the TLS event bus); a third worker with the same {@code cluster.name}
 * but another secret is not admitted: it forms a cluster of its own and the others still count two workers.
 *
 * <p>Tagged {@code integration}. Run it alone with {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=ClusterSecurityIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class ClusterSecurityIntegrationTest {

    private static final Duration JOIN = Duration.ofSeconds(150);
    private static final int SHARDS = 4;
    private static final String TOKEN = "cluster-security-token";

    private ItFleet fleet;
    private TestCertificates ca;

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
        if (ca != null) {
            ca.close();
        }
    }

    @Test
    void workersWithTheSecretAndCertificatesShareShardsAndAnotherSecretIsNotAdmitted(RedisServer redis)
            throws Exception {
        fleet = ItFleet.create("secure");
        ca = TestCertificates.create(fleet.cluster);
        fleet.listener("secure", "handler=logging-sink", "streams=secure:" + SHARDS, "group=secure",
                "concurrency=1", "start.from=earliest");
        StreamProducer.produce(redis, "secure", SHARDS, 10);
        List<Integer> ports = FreePorts.take(6);
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 3));
        common.put("redis.url", redis.uri());
        common.put("rest.auth.token", TOKEN);
        common.put("cluster.secret", "a shared secret of the secure cluster");
        common.put("cluster.tls.ca.path", ca.caCert().toString());

        WorkerProcess w0 = fleet.start("w0", withCertificate(ItFleet.withPorts(common, ports.get(0), ports.get(3)), "w0"));
        w0.await("joined cluster", JOIN);
        assertThat(w0.find("Cluster ports: join secret on, event-bus TLS on (client certificates required)")).isPresent();
        WorkerProcess w1 = fleet.start("w1", withCertificate(ItFleet.withPorts(common, ports.get(1), ports.get(4)), "w1"));
        assertThat(w1.await("joined cluster", JOIN)).contains("2 worker(s), leader w0");
        // w1's member heartbeats to the coordinator on w0 over the TLS event bus and gets shards.
        new ClusterProbe(redis).awaitOwners("secure", SHARDS, o -> o.values().stream().map(ClusterProbe::workerOf)
                .distinct().count() == 2, JOIN, "shards owned by both workers");

        Map<String, String> intruder = ItFleet.withPorts(common, ports.get(2), ports.get(5));
        intruder.put("cluster.secret", "another secret, same cluster.name");
        intruder.remove("cluster.tls.ca.path");
        // Its own Redis and no listeners: only the Hazelcast join is under test (with the same Redis it would lead
        // its own cluster there, which the leader epochs fence).
        intruder.put("listeners.dir", java.nio.file.Files.createDirectories(fleet.dir.resolve("no-listeners")).toString());
        try (RedisServer other = RedisServer.start(false)) {
            intruder.put("redis.url", other.uri());
            WorkerProcess w2 = fleet.start("w2", intruder);
            assertThat(w2.await("joined cluster", JOIN)).contains("1 worker(s), leader w2");
            JsonObject workers = new RestClient(ports.get(3), TOKEN).get("/workers");
            assertEquals("w0", workers.getString("leader_id"), workers.encode());
            assertEquals(2, workers.getJsonArray("workers").size(), workers.encode());
            w2.terminate();
            w2.waitExit(Duration.ofSeconds(60));
        }
        // The derived Hazelcast cluster name is the join credential: it is in no log line.
        String derived = new ClusterSecurity(new Password(common.get("cluster.secret")), null, null, null)
                .hazelcastClusterName(fleet.cluster);
        for (WorkerProcess w : fleet.workers()) {
            assertThat(w.lines()).as("%s's output", w.workerId).noneMatch(l -> l.contains(derived));
        }
        assertThat(w0.find("Received an invalid join request")).isPresent();
    }

    private Map<String, String> withCertificate(Map<String, String> settings, String worker) {
        TestCertificates.KeyPair pair = ca.issue(worker);
        settings.put("cluster.tls.key.path", pair.key().toString());
        settings.put("cluster.tls.cert.path", pair.cert().toString());
        return settings;
    }
}
