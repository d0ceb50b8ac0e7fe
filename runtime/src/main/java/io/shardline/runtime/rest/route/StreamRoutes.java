package io.shardline.runtime.rest.route;

import io.shardline.runtime.control.ControlPlane;
import io.shardline.runtime.control.ControlPlaneException;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.util.Objects;

/**
 * {@code GET /streams} (every stream of the cluster: name, shards, routing epoch, state, groups on it),
 * {@code GET /streams/{stream}} (one, with its topology's history and a running change's progress),
 * {@code POST /streams} with {@code {"stream": S, "shards": N}} (creates the stream's topology: 201; 409 when it
 * exists), {@code POST /streams/{stream}/reshard} with {@code {"shards": M}} (starts a change: 202 with the stream)
 * and {@code POST /streams/{stream}/reshard/rollback} (202). Stateless.
 */
public final class StreamRoutes {

    private final ControlPlane plane;

    /** Routes over {@code plane}. */
    public StreamRoutes(ControlPlane plane) {
        this.plane = Objects.requireNonNull(plane, "plane");
    }

    /** The sub-router, to be mounted at {@code /streams*}. */
    public Router router(Vertx vertx) {
        Router router = Router.router(vertx);
        router.get("/").respond(ctx -> plane.streams());
        router.get("/:stream").respond(ctx -> Requests.guarded(() -> plane.stream(ctx.pathParam("stream"))));
        router.post("/:stream/reshard").respond(ctx -> Requests.guarded(() -> {
            JsonObject body = Requests.jsonBody(ctx);
            Requests.onlyFields(body, java.util.Set.of("shards"));
            if (!(body.getValue("shards") instanceof Number shards) || shards.doubleValue() != shards.intValue()) {
                throw ControlPlaneException.badRequest("body: a JSON object {\"shards\": 32} with the new shard count");
            }
            return plane.reshardStream(ctx.pathParam("stream"), shards.intValue()).map(view -> {
                ctx.response().setStatusCode(202);
                return view;
            });
        }));
        router.post("/:stream/reshard/rollback").respond(ctx -> Requests.guarded(() ->
                plane.rollbackStream(ctx.pathParam("stream")).map(view -> {
                    ctx.response().setStatusCode(202);
                    return view;
                })));
        router.post("/").respond(ctx -> Requests.guarded(() -> {
            JsonObject body = Requests.jsonBody(ctx);
            Requests.onlyFields(body, java.util.Set.of("stream", "shards"));
            if (!(body.getValue("stream") instanceof String stream)
                    || !(body.getValue("shards") instanceof Number shards)) {
                throw ControlPlaneException.badRequest("body: a JSON object {\"stream\": \"orders\", \"shards\": 16}");
            }
            return plane.createStream(stream, shards.intValue()).map(created -> {
                ctx.response().setStatusCode(201);
                return created;
            });
        }));
        return router;
    }
}
