package io.shardline.runtime.rest.route;

import io.shardline.runtime.control.ControlPlane;
import io.shardline.runtime.control.ControlPlaneException;
import io.shardline.runtime.control.RedriveRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code /listeners/{name}/dead-letters} (docs/operations.md, "Dead letters"): {@code GET} a page of dead letters,
 * newest first ({@code ?limit=50&before=<id>}); {@code GET .../{id}} one with its record's fields; {@code POST
 * .../redrive} with {@code {"ids":["..."]}} or {@code {"all":true}}, optionally {@code "to_stream":"<key>"}, writes them
 * back ({@code ?dry_run=true}: only answers what would be written). Stateless.
 */
final class DeadLetterRoutes {

    /** The largest page. */
    static final int MAX_LIMIT = 1_000;

    private DeadLetterRoutes() {
    }

    /** Adds the routes to the {@code /listeners} sub-router. */
    static void addTo(Router router, ControlPlane plane) {
        router.get("/:name/dead-letters").respond(ctx -> Requests.guarded(() -> plane.deadLetters(ctx.pathParam("name"),
                Requests.intParam(ctx, "limit", 50, 1, MAX_LIMIT), ctx.queryParams().get("before"))));
        router.post("/:name/dead-letters/redrive").respond(ctx -> Requests.guarded(() -> plane.redriveDeadLetters(
                ctx.pathParam("name"), request(Requests.jsonBody(ctx)), Requests.flag(ctx, "dry_run"))));
        router.get("/:name/dead-letters/:id").respond(ctx -> Requests.guarded(() -> plane.deadLetter(ctx.pathParam("name"),
                ctx.pathParam("id"))));
    }

    /** The redrive request of a POST body; 400 naming the field for anything else. */
    static RedriveRequest request(JsonObject body) {
        Requests.onlyFields(body, Set.of("ids", "all", "to_stream"));
        List<String> ids = new ArrayList<>();
        if (body.containsKey("ids")) {
            if (!(body.getValue("ids") instanceof JsonArray array)) {
                throw ControlPlaneException.badRequest("ids: must be a list of dead-letter ids");
            }
            for (int i = 0; i < array.size(); i++) {
                if (!(array.getValue(i) instanceof String id)) {
                    throw ControlPlaneException.badRequest("ids[" + i + "]: must be a string (a dead-letter id)");
                }
                ids.add(id);
            }
        }
        Object all = body.getValue("all");
        if (all != null && !(all instanceof Boolean)) {
            throw ControlPlaneException.badRequest("all: must be true or false");
        }
        Object to = body.getValue("to_stream");
        if (to != null && !(to instanceof String)) {
            throw ControlPlaneException.badRequest("to_stream: must be a string (a stream key)");
        }
        return new RedriveRequest(ids, Boolean.TRUE.equals(all), (String) to);
    }
}
