package io.shardline.runtime.rest.route;

import io.shardline.runtime.control.ControlPlane;
import io.shardline.runtime.control.ControlPlaneException;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code /admin/loggers} (Connect KIP-495): {@code GET} every logger with a level of its own on this worker
 * ({@code {"<name>":{"level":"INFO"}}}); {@code GET /admin/loggers/{name}}; {@code PUT /admin/loggers/{name}} with
 * {@code {"level":"DEBUG"}} sets it on this worker, or with {@code ?scope=cluster} on every live worker, until they
 * restart. Stateless.
 */
public final class AdminRoutes {

    private final ControlPlane plane;

    /** Routes over {@code plane}. */
    public AdminRoutes(ControlPlane plane) {
        this.plane = Objects.requireNonNull(plane, "plane");
    }

    /** The sub-router, to be mounted at {@code /admin*}. */
    public Router router(Vertx vertx) {
        Router router = Router.router(vertx);
        router.get("/loggers").respond(ctx -> plane.loggers().map(AdminRoutes::asLevels));
        router.get("/loggers/:logger").respond(ctx -> plane.loggers().map(levels -> {
            String name = ctx.pathParam("logger");
            String level = levels.get(name);
            if (level == null) {
                throw ControlPlaneException.notFound("logger '" + name + "' has no level of its own on this worker "
                        + "(it inherits one; GET /admin/loggers lists those set)");
            }
            return new JsonObject().put("level", level);
        }));
        router.put("/loggers/:logger").respond(ctx -> Requests.guarded(() -> set(ctx)));
        return router;
    }

    private io.vertx.core.Future<JsonObject> set(RoutingContext ctx) {
        JsonObject body = Requests.jsonBody(ctx);
        for (String field : body.fieldNames()) {
            if (!field.equals("level")) {
                throw ControlPlaneException.badRequest(field + ": unknown field (only \"level\")");
            }
        }
        if (!(body.getValue("level") instanceof String level)) {
            throw ControlPlaneException.badRequest("level: required, one of TRACE, DEBUG, INFO, WARN, ERROR, OFF");
        }
        String scope = ctx.queryParams().get("scope");
        if (scope != null && !Set.of("worker", "cluster").contains(scope)) {
            throw ControlPlaneException.badRequest("query parameter scope: must be worker or cluster, got '" + scope
                    + "'");
        }
        String name = ctx.pathParam("logger");
        return plane.setLoggerLevel(name, level, "cluster".equals(scope)).map(workers -> new JsonObject()
                .put("logger", name).put("level", level.trim().toUpperCase(java.util.Locale.ROOT))
                .put("workers", new JsonArray(workers)));
    }

    private static Map<String, Map<String, String>> asLevels(Map<String, String> levels) {
        Map<String, Map<String, String>> out = new TreeMap<>();
        levels.forEach((name, level) -> out.put(name, Map.of("level", level)));
        return out;
    }
}
