package io.shardline.runtime.rest.route;

import io.shardline.runtime.control.ControlPlane;
import io.shardline.runtime.control.ControlPlaneException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code GET /listeners/{name}/config} (the configuration, secrets hidden, as Connect's) and
 * {@code PATCH /listeners/{name}/config} (a JSON object of keys to change; a {@code null} value removes the key;
 * validated and stored like a PUT; REST listeners only). Stateless.
 */
final class ConfigRoutes {

    private ConfigRoutes() {
    }

    /** Adds the routes to the {@code /listeners} sub-router. */
    static void addTo(Router router, ControlPlane plane) {
        router.get("/:name/config").respond(ctx -> plane.listenerConfig(ctx.pathParam("name")));
        router.patch("/:name/config").respond(ctx -> Requests.guarded(() -> plane.patchListenerConfig(
                ctx.pathParam("name"), changes(Requests.jsonBody(ctx)))));
    }

    /** The changes of a PATCH body: strings (numbers and booleans as their text), {@code null} to remove. */
    static Map<String, String> changes(JsonObject body) {
        if (body.isEmpty()) {
            throw ControlPlaneException.badRequest("request body: name at least one key to change (a null value "
                    + "removes the key)");
        }
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, Object> e : body) {
            Object v = e.getValue();
            if (v == null) {
                out.put(e.getKey(), null);
            } else if (v instanceof String || v instanceof Number || v instanceof Boolean) {
                out.put(e.getKey(), String.valueOf(v));
            } else {
                throw ControlPlaneException.badRequest(e.getKey() + ": must be a string or null, got "
                        + (v instanceof JsonArray ? "an array" : "an object"));
            }
        }
        return out;
    }
}
