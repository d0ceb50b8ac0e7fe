package io.shardline.runtime.rest;

import static io.shardline.runtime.testing.Await.result;

import com.codahale.metrics.MetricRegistry;
import io.shardline.runtime.control.ControlKeys;
import io.shardline.runtime.control.DefaultControlPlane;
import io.shardline.runtime.control.ListenerConfigStore;
import io.shardline.runtime.control.ListenerStateStore;
import io.shardline.runtime.control.RestConfigPolicy;
import io.shardline.runtime.listener.ListenerConfig;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A REST server on a loopback port over a real Redis, the test class path's plugins (the
 * {@code configured} handler) and a {@link FakeClusterView}; plus a small HTTP client. Every response body
 * is kept so tests can check that no secret ever appears in one.
 */
final class RestHarness implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(30);

    final Vertx vertx = Vertx.vertx();
    final FakeClusterView cluster;
    final RedisClient redis;
    final Plugins plugins = Plugins.load(List.of(), RestHarness.class.getClassLoader());
    final MetricRegistry registry = new MetricRegistry();
    final List<String> bodies = new CopyOnWriteArrayList<>();
    /** A plain JDK client (keep-alive, HTTP/1.1), as curl or Prometheus would use. */
    private final HttpClient http;
    private final RestSettings settings;
    private final RestConfigPolicy policy;
    DefaultControlPlane plane;
    private RestServerVerticle verticle;
    private String deployment;

    RestHarness(String redisUri, String clusterName, RestSettings settings) {
        this(redisUri, clusterName, settings, RestConfigPolicy.NONE);
    }

    /** A harness over a Redis emptied first ({@code FLUSHALL}): each test starts from no stream and no listener. */
    static RestHarness onEmptyRedis(String redisUri, String clusterName, RestSettings settings) {
        RestHarness rest = new RestHarness(redisUri, clusterName, settings);
        result(rest.redis.send(Request.cmd(Command.FLUSHALL)), WAIT);
        return rest;
    }

    RestHarness(String redisUri, String clusterName, RestSettings settings, RestConfigPolicy policy) {
        this.cluster = new FakeClusterView(clusterName);
        this.settings = settings;
        this.policy = policy;
        HttpClient.Builder client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(WAIT);
        settings.tls().ifPresent(tls -> client.sslContext(trusting(tls.cert())));
        this.http = client.build();
        this.redis = result(RedisClient.connect(vertx, RedisConfig.standalone(redisUri), new SplittableRandom(7)), WAIT);
        start();
    }

    /** Deploys a fresh control plane and REST verticle (a "restart" of the REST side). */
    void start() {
        ControlKeys keys = new ControlKeys(cluster.clusterName());
        plane = new DefaultControlPlane(vertx, cluster, redis, plugins, ListenerConfig.DEFINITION, policy,
                new ListenerConfigStore(redis, keys), new ListenerStateStore(redis, keys));
        verticle = new RestServerVerticle(settings, plane, registry);
        deployment = result(vertx.deployVerticle(verticle), WAIT);
    }

    /** Undeploys the REST verticle. */
    void stop() {
        result(vertx.undeploy(deployment), WAIT);
    }

    int port() {
        return verticle.actualPort();
    }

    Reply call(HttpMethod method, String path) {
        return call(method, path, null, null);
    }

    Reply call(HttpMethod method, String path, String body) {
        return call(method, path, body, null);
    }

    Reply call(HttpMethod method, String path, String body, String token) {
        return call(method, path, body, token, body == null ? java.util.Map.of()
                : java.util.Map.of("Content-Type", "application/json"));
    }

    /** A request with exactly {@code headers} (plus the token's, when given). */
    Reply call(HttpMethod method, String path, String body, String token, java.util.Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(settings.scheme() + "://localhost:" + port() + path))
                .timeout(WAIT)
                .method(method.name(), body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            Reply reply = new Reply(response.statusCode(), response.headers(), response.body());
            bodies.add(reply.body());
            return reply;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends {@code head} (request line and headers, no blank line) over a plain socket; the status and body. */
    Reply raw(String head) {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            socket.getOutputStream().write((head + "\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            int status = answer.length() < 12 ? 0 : Integer.parseInt(answer.substring(9, 12));
            int split = answer.indexOf("\r\n\r\n");
            String body = split < 0 ? "" : answer.substring(split + 4);
            java.util.Map<String, List<String>> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (String line : answer.substring(0, split < 0 ? answer.length() : split).split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    headers.put(line.substring(0, colon).trim(), List.of(line.substring(colon + 1).trim()));
                }
            }
            Reply reply = new Reply(status, HttpHeaders.of(headers, (a, b) -> true), body);
            bodies.add(body);
            return reply;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An SSL context that trusts exactly the certificate in {@code pem}. */
    static javax.net.ssl.SSLContext trusting(java.nio.file.Path pem) {
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(pem)) {
            java.security.KeyStore store = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
            store.load(null, null);
            store.setCertificateEntry("rest", java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificate(in));
            javax.net.ssl.TrustManagerFactory trust = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
        plugins.close();
    }

    /** One HTTP response. */
    record Reply(int status, HttpHeaders headers, String body) {

        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        JsonObject json() {
            return new JsonObject(body);
        }

        JsonArray array() {
            return new JsonArray(body);
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }
}
