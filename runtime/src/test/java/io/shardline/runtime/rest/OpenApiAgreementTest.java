package io.shardline.runtime.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.shardline.runtime.control.ControlPlane;
import io.shardline.runtime.rest.entity.HealthStatus;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** docs/rest-api.yaml and the router describe the same routes: every route is documented and vice versa. */
class OpenApiAgreementTest {

    private static final Path DOC = Path.of("..", "docs", "rest-api.yaml");
    private static final Set<String> OPERATIONS = Set.of("get", "put", "post", "delete", "patch", "head");

    @Test
    void routerAndDocumentAgreeBothWays() throws IOException {
        Vertx vertx = Vertx.vertx();
        try {
            RestServerVerticle verticle = new RestServerVerticle(RestSettings.loopback(0), unusedPlane(),
                    new MetricRegistry());
            verticle.init(vertx, vertx.getOrCreateContext());
            Set<String> routed = new TreeSet<>();
            collect(verticle.router(), "", routed);
            assertThat(routed).hasSizeGreaterThanOrEqualTo(24).contains("GET /", "GET /listeners", "GET /metrics", "GET /ui", "GET /ui/{file}",
                    "PUT /listeners/{name}/shards/{stream}/{shard}/pause", "PUT /plugins/{class}/config/validate");
            assertEquals(documented(), routed);
        } finally {
            vertx.close();
        }
    }

    private static void collect(Router router, String prefix, Set<String> out) {
        for (Route route : router.getRoutes()) {
            String path = route.getPath();
            if (route.getSubRouter() != null) {
                collect(route.getSubRouter(), prefix + path, out);
                continue;
            }
            if (path == null || route.methods() == null || route.methods().isEmpty()) {
                continue; // auth, body and failure handlers apply to every route
            }
            String full = prefix + path;
            if (!route.isExactPath()) {
                full = full + (full.endsWith("/") ? "" : "/") + "{file}"; // a wildcard route serves files
            }
            if (full.length() > 1 && full.endsWith("/")) {
                full = full.substring(0, full.length() - 1);
            }
            String openApiPath = full.replaceAll(":([A-Za-z]+)", "{$1}");
            for (HttpMethod method : route.methods()) {
                out.add(method.name() + " " + openApiPath);
            }
        }
    }

    private static Set<String> documented() throws IOException {
        JsonNode paths = new ObjectMapper(new YAMLFactory()).readTree(DOC.toFile()).path("paths");
        Set<String> out = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> path = it.next();
            for (Iterator<String> ops = path.getValue().fieldNames(); ops.hasNext(); ) {
                String op = ops.next();
                if (OPERATIONS.contains(op)) {
                    out.add(op.toUpperCase(Locale.ROOT) + " " + path.getKey());
                }
            }
        }
        return out;
    }

    /** Building the router never calls the plane. */
    private static ControlPlane unusedPlane() {
        return (ControlPlane) Proxy.newProxyInstance(ControlPlane.class.getClassLoader(),
                new Class<?>[] {ControlPlane.class}, (proxy, method, args) -> {
                    if (method.getName().equals("health")) {
                        return Future.<HealthStatus>succeededFuture(HealthStatus.of(true, true, true));
                    }
                    throw new AssertionError("unexpected call " + method);
                });
    }
}
