package io.shardline.runtime.redis;

import static io.shardline.runtime.testing.Await.failure;
import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.tls.TestCertificates;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * TLS to a real redis-server started with {@code --tls-port} and {@code tls-auth-clients yes}, certificates made
 * at test time: {@code redis.tls.enabled} with a {@code redis://} URL, a client certificate, and failures that say
 * why.
 */
@Tag("integration")
class RedisTlsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private static TestCertificates certs;
    private static TestCertificates otherCa;
    private static RedisServer redis;
    private static TestCertificates.KeyPair client;

    private Vertx vertx;

    @BeforeAll
    static void startServer() {
        certs = TestCertificates.create("redis");
        otherCa = TestCertificates.create("other");
        TestCertificates.KeyPair server = certs.issue("redis-server");
        client = certs.issue("worker");
        redis = RedisServer.startTls(server.cert(), server.key(), certs.caCert(), true);
    }

    @AfterAll
    static void stopServer() {
        redis.close();
        certs.close();
        otherCa.close();
    }

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stop() {
        result(vertx.close(), WAIT);
    }

    @Test
    void theFlagTurnsTlsOnForARedisUrlAndTheClientCertificateIsAccepted() {
        RedisClient connected = result(RedisClient.connect(vertx,
                tls("redis://127.0.0.1:" + redis.tlsPort(), certs.caCert(), client), new SplittableRandom(1)), WAIT);
        try {
            assertThat(result(connected.send(Request.cmd(Command.PING)), WAIT).toString()).isEqualTo("PONG");
        } finally {
            result(connected.close(), WAIT);
        }
    }

    @Test
    void withoutAClientCertificateTheFailureSaysWhy() {
        Throwable e = failure(RedisClient.connect(vertx, tls("rediss://127.0.0.1:" + redis.tlsPort(), certs.caCert(),
                null), new SplittableRandom(2)), WAIT);
        assertThat(e).hasMessageStartingWith("cannot reach Redis at rediss://127.0.0.1:" + redis.tlsPort());
        System.out.println("no client certificate: " + e.getMessage());
    }

    @Test
    void anUntrustedServerCertificateIsNamedAsTheCause() {
        Throwable e = failure(RedisClient.connect(vertx, tls("redis://127.0.0.1:" + redis.tlsPort(),
                otherCa.caCert(), client), new SplittableRandom(3)), WAIT);
        assertThat(e.getMessage()).contains("cannot reach Redis at redis://127.0.0.1:" + redis.tlsPort())
                .containsIgnoringCase("certificat");
        System.out.println("untrusted server: " + e.getMessage());
    }

    private static RedisConfig tls(String url, Path ca, TestCertificates.KeyPair key) {
        RedisConfig d = RedisConfig.standalone(url);
        return new RedisConfig(url, d.clusterUrls(), null, null, true, ca.toString(),
                key == null ? null : key.key().toString(), key == null ? null : key.cert().toString(), true,
                d.protocol(), 2_000, d.poolSize(), d.poolWaiting(), 50, 100);
    }
}
