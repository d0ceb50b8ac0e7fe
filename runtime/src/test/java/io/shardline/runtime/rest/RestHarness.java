package io.shardline.runtime.rest;

import static io.shardline.runtime.testing.Await.result;

import com.codahale.metrics.MetricRegistry;
import io.shardline.runtime.listener.ListenerConfig;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
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
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(WAIT).build();
    private final RestSettings settings;
    DefaultControlPlane plane;
    private RestServerVerticle verticle;
    private String deployment;

    RestHarness(String redisUri, String clusterName, RestSettings settings) {
        this.cluster = new FakeClusterView(clusterName);
        this.settings = settings;
        this.redis = result(RedisClient.connect(vertx, RedisConfig.standalone(redisUri), new SplittableRandom(7)), WAIT);
        start();
    }

    /** Deploys a fresh control plane and REST verticle (a "restart" of the REST side). */
    void start() {
        plane = new DefaultControlPlane(vertx, cluster, redis, plugins, ListenerConfig.DEFINITION);
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
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path))
                .timeout(WAIT)
                .method(method.name(), body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
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
