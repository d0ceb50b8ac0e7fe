package io.shardline.runtime.cluster;

import static io.shardline.runtime.testing.Await.failure;
import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import io.shardline.api.config.Password;
import io.shardline.runtime.testing.Await;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.tls.TestCertificates;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cluster ports locked down (docs/security.md, "Cluster port"), with real Hazelcast members and clustered Vert.x in this
 * JVM on loopback: a member with another {@code cluster.secret} is refused at join (it neither receives this
 * cluster's event-bus messages nor leads it), and with event-bus TLS a member without a certificate of the cluster
 * CA cannot reach the others' consumers.
 */
@Tag("integration")
class ClusterSecurityTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String SECRET = "correct horse battery staple";

    private final List<WorkerCluster> started = new ArrayList<>();
    private final List<TestCertificates> cas = new ArrayList<>();

    @AfterEach
    void stopAll() {
        for (WorkerCluster c : started) {
            c.stop(10_000);
        }
        cas.forEach(TestCertificates::close);
    }

    @Test
    void aMemberWithAnotherSecretIsRefusedAtJoinAndGetsNoMessages() {
        List<ClusterSettings> s = settings(3);
        WorkerCluster a = start(s.get(0).withSecurity(secret(SECRET)));
        WorkerCluster intruder = start(s.get(1).withSecurity(secret("another secret of 16+ chars")));
        WorkerCluster c = start(s.get(2).withSecurity(secret(SECRET)));
        Await.until(() -> a.view().size() == 2 && c.view().size() == 2, WAIT, 20, "a and c see each other");
        AtomicInteger received = new AtomicInteger();
        a.vertx().eventBus().<String>consumer("probe", m -> {
            received.incrementAndGet();
            m.reply("pong from a");
        });
        // The subscription has reached c: a member with the secret is served.
        assertEquals("pong from a", Await.eventually(() -> request(c, "probe"), WAIT, 50));

        assertThat(intruder.view().size()).as("the intruder's view").isEqualTo(1);
        assertThat(a.view().members()).extracting(ClusterMember::workerId).containsExactly("w0", "w2");
        assertEquals("w0", c.view().leader().workerId());
        Throwable refused = failure(request(intruder, "probe"), WAIT);
        assertThat(refused).isInstanceOf(ReplyException.class);
        assertEquals(ReplyFailure.NO_HANDLERS, ((ReplyException) refused).failureType());
        assertEquals(1, received.get());
    }

    @Test
    void aHazelcastClientNeedsTheDerivedNameToo() {
        ClusterSettings s = settings(1).get(0).withSecurity(secret(SECRET));
        start(s);
        // With the plain cluster.name (what anyone who knows the setting would try) the member refuses the client.
        assertThatThrownBy(() -> client(s.clusterName(), s.port()).shutdown()).isInstanceOf(IllegalStateException.class);
        // The positive control: with the derived name a client gets in (and could read the event-bus registry).
        HazelcastInstance insider = client(s.security().hazelcastClusterName(s.clusterName()), s.port());
        try {
            assertThat(insider.getCluster().getMembers()).hasSize(1);
        } finally {
            insider.shutdown();
        }
    }

    private static HazelcastInstance client(String clusterName, int port) {
        ClientConfig config = new ClientConfig().setClusterName(clusterName);
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.getNetworkConfig().addAddress("127.0.0.1:" + port);
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(3_000);
        return HazelcastClient.newHazelcastClient(config);
    }

    @Test
    void eventBusTrafficWithoutAClientCertificateIsRefused() {
        TestCertificates ca = ca("cluster");
        TestCertificates.KeyPair w0 = ca.issue("w0");
        TestCertificates.KeyPair w1 = ca.issue("w1");
        TestCertificates other = ca("other");
        TestCertificates.KeyPair stranger = other.issue("stranger");
        List<ClusterSettings> s = settings(4);
        WorkerCluster a = start(s.get(0).withSecurity(tls(w0, ca)));
        WorkerCluster b = start(s.get(1).withSecurity(tls(w1, ca)));
        // Both know the secret and join Hazelcast; neither has a certificate of the cluster CA.
        WorkerCluster plain = start(s.get(2).withSecurity(secret(SECRET)));
        WorkerCluster foreign = start(s.get(3).withSecurity(new ClusterSecurity(new Password(SECRET),
                stranger.key().toString(), stranger.cert().toString(), other.caCert().toString())));
        Await.until(() -> a.view().size() == 4, WAIT, 20, "four Hazelcast members");
        List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        a.vertx().eventBus().<String>consumer("probe", m -> {
            received.add(m.body());
            m.reply("pong from a");
        });
        assertEquals("pong from a", Await.eventually(() -> request(b, "probe"), WAIT, 50));
        // The subscription is known cluster-wide now; without a certificate of the CA the message never arrives.
        Await.until(() -> result(plain.vertx().sharedData().getLocalAsyncMap("x").map(true), WAIT), WAIT, 20, "up");
        // Both requests at once: each is refused only when its send timeout (3 s) runs out.
        Future<String> fromPlain = request(plain, "probe");
        Future<String> fromForeign = request(foreign, "probe");
        assertThat(failure(fromPlain, WAIT)).isInstanceOf(ReplyException.class);
        assertThat(failure(fromForeign, WAIT)).isInstanceOf(ReplyException.class);
        assertThat(received).doesNotContain("ping from w2", "ping from w3");
    }

    private static Future<String> request(WorkerCluster from, String address) {
        return from.vertx().eventBus().<String>request(address, "ping from " + from.settings().workerId(), new DeliveryOptions().setSendTimeout(3_000))
                .map(m -> m.body());
    }

    private TestCertificates ca(String name) {
        TestCertificates ca = TestCertificates.create(name);
        cas.add(ca);
        return ca;
    }

    private static ClusterSecurity secret(String secret) {
        return new ClusterSecurity(new Password(secret), null, null, null);
    }

    private static ClusterSecurity tls(TestCertificates.KeyPair pair, TestCertificates ca) {
        return new ClusterSecurity(new Password(SECRET), pair.key().toString(), pair.cert().toString(),
                ca.caCert().toString());
    }

    private WorkerCluster start(ClusterSettings s) {
        WorkerCluster c = WorkerCluster.start(s, 30_000);
        started.add(c);
        return c;
    }

    private static List<ClusterSettings> settings(int n) {
        String name = "sec-" + UUID.randomUUID().toString().substring(0, 8);
        List<Integer> ports = FreePorts.take(n);
        List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
        List<ClusterSettings> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ClusterSettings(name, "w" + i, "127.0.0.1", ports.get(i), members, 5_000, 5_000, Map.of()));
        }
        return out;
    }
}
