package io.shardline.runtime.rest.route;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.control.ControlPlane;
import io.shardline.runtime.control.ControlPlaneException;
import io.shardline.runtime.control.ShardMove;
import io.shardline.runtime.control.ShardPosition;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code /listeners/{name}/offsets} (Connect KIP-875): {@code GET} the group's position per shard; {@code PATCH} with
 * {@code {"shards":[{"stream":"orders","shard":3,"position":"earliest"}]}} or {@code {"all":{"position":"-15m"}}}
 * moves them; {@code DELETE} goes back to {@code start.from}. Writes are allowed only while the listener is
 * STOPPED (409 otherwise); {@code ?dry_run=true} answers the moves without making them, in any state. Stateless.
 */
final class OffsetRoutes {

    private OffsetRoutes() {
    }

    /** Adds the routes to the {@code /listeners} sub-router. */
    static void addTo(Router router, ControlPlane plane) {
        router.get("/:name/offsets").respond(ctx -> plane.offsets(ctx.pathParam("name")));
        router.patch("/:name/offsets").respond(ctx -> Requests.guarded(() -> plane.alterOffsets(ctx.pathParam("name"),
                moves(Requests.jsonBody(ctx)), Requests.flag(ctx, "dry_run"))));
        router.delete("/:name/offsets").respond(ctx -> Requests.guarded(() -> plane.resetOffsets(ctx.pathParam("name"),
                Requests.flag(ctx, "dry_run"))));
    }

    /** The moves of a PATCH body; 400 naming the field for anything else. */
    static List<ShardMove> moves(JsonObject body) {
        for (String field : body.fieldNames()) {
            if (!field.equals("shards") && !field.equals("all")) {
                throw ControlPlaneException.badRequest(field + ": unknown field (use \"shards\" or \"all\")");
            }
        }
        if (body.containsKey("shards") == body.containsKey("all")) {
            throw ControlPlaneException.badRequest("request body: exactly one of \"shards\" (a list of {stream, shard, "
                    + "position}) or \"all\" ({position}) is required");
        }
        if (body.containsKey("all")) {
            JsonObject all = object(body.getValue("all"), "all");
            only(all, "all", Set.of("position"));
            return List.of(new ShardMove(null, ShardPosition.parse(text(all, "position", "all.position"),
                    "all.position")));
        }
        if (!(body.getValue("shards") instanceof JsonArray shards) || shards.isEmpty()) {
            throw ControlPlaneException.badRequest("shards: must be a non-empty list of {stream, shard, position}");
        }
        List<ShardMove> out = new ArrayList<>();
        for (int i = 0; i < shards.size(); i++) {
            String path = "shards[" + i + "]";
            JsonObject item = object(shards.getValue(i), path);
            only(item, path, Set.of("stream", "shard", "position"));
            String stream = text(item, "stream", path + ".stream");
            if (!(item.getValue("shard") instanceof Integer index) || index < 0) {
                throw ControlPlaneException.badRequest(path + ".shard: required, a shard index (an integer >= 0)");
            }
            ShardId shard;
            try {
                shard = new ShardId(stream, index);
            } catch (IllegalArgumentException e) {
                throw ControlPlaneException.badRequest(path + ".stream: " + e.getMessage());
            }
            out.add(new ShardMove(shard, ShardPosition.parse(text(item, "position", path + ".position"),
                    path + ".position")));
        }
        return out;
    }

    private static JsonObject object(Object value, String path) {
        if (value instanceof JsonObject o) {
            return o;
        }
        throw ControlPlaneException.badRequest(path + ": must be a JSON object");
    }

    private static void only(JsonObject o, String path, Set<String> allowed) {
        for (String field : o.fieldNames()) {
            if (!allowed.contains(field)) {
                throw ControlPlaneException.badRequest(path + "." + field + ": unknown field (allowed: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
    }

    private static String text(JsonObject o, String field, String path) {
        if (o.getValue(field) instanceof String s && !s.isBlank()) {
            return s;
        }
        throw ControlPlaneException.badRequest(path + ": required, a string");
    }
}
