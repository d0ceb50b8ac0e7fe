package io.shardline.runtime.rest.route;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.control.ControlPlane;
import io.shardline.runtime.control.ControlPlaneException;
import io.shardline.runtime.control.ShardPage;
import io.shardline.runtime.rest.entity.ListenerStatus;
import io.shardline.runtime.rest.entity.TargetState;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * {@code /listeners}: list ({@code ?expand=status}: each with its first {@link ShardPage#DEFAULT_LIMIT} shards;
 * {@code ?expand=info}), create, read, replace config, delete, status (a page of its shards: {@code ?offset&limit}),
 * history
 * (records/s, dead letters/s and lag over 15 minutes, for the console's charts),
 * pause/resume/stop (202, persisted target states, idempotent), restart ({@code ?includeMembers&onlyFailed},
 * KIP-745; {@code includeTasks} as Connect names it), members as Connect's tasks ({@link MemberRoutes}), per-shard
 * pause/resume and positions ({@link OffsetRoutes}), config read and patch ({@link ConfigRoutes}), dead letters
 * ({@link DeadLetterRoutes}).
 */
public final class ListenerRoutes {

    /** The fields of a create request. */
    private static final java.util.Set<String> CREATE_FIELDS = java.util.Set.of("name", "config", "initial_state");

    private final ControlPlane plane;

    /** Routes over {@code plane}. */
    public ListenerRoutes(ControlPlane plane) {
        this.plane = Objects.requireNonNull(plane, "plane");
    }

    /** The sub-router, to be mounted at {@code /listeners*}. */
    public Router router(Vertx vertx) {
        Router router = Router.router(vertx);
        router.get("/").respond(this::list);
        router.post("/").respond(ctx -> Requests.guarded(() -> create(ctx)));
        router.get("/:name").respond(ctx -> plane.listener(ctx.pathParam("name")));
        router.put("/:name/config").respond(ctx -> Requests.guarded(() -> plane.putListenerConfig(ctx.pathParam("name"),
                Requests.strings(Requests.jsonBody(ctx), "config.")).map(upserted -> {
                    ctx.response().setStatusCode(upserted.created() ? 201 : 200);
                    return upserted.value();
                })));
        router.delete("/:name").handler(ctx -> Requests.noContent(ctx, 204, plane.deleteListener(ctx.pathParam("name"))));
        router.get("/:name/status").respond(ctx -> Requests.guarded(() -> plane.listenerStatus(ctx.pathParam("name"),
                page(ctx))));
        router.get("/:name/history").respond(ctx -> plane.listenerHistory(ctx.pathParam("name")));
        router.put("/:name/pause").handler(ctx -> target(ctx, TargetState.PAUSED));
        router.put("/:name/resume").handler(ctx -> target(ctx, TargetState.STARTED));
        router.put("/:name/stop").handler(ctx -> target(ctx, TargetState.STOPPED));
        router.post("/:name/restart").handler(this::restartOrRespond);
        router.put("/:name/shards/:stream/:shard/pause").handler(ctx -> shard(ctx, true));
        router.put("/:name/shards/:stream/:shard/resume").handler(ctx -> shard(ctx, false));
        OffsetRoutes.addTo(router, plane);
        ConfigRoutes.addTo(router, plane);
        MemberRoutes.addTo(router, plane);
        DeadLetterRoutes.addTo(router, plane);
        return router;
    }

    /** Connect's {@code ?expand=status}, {@code ?expand=info}, or both ({@code ?expand=status&expand=info}). */
    private Future<?> list(RoutingContext ctx) {
        java.util.List<String> expand = ctx.queryParams().getAll("expand");
        if (expand.isEmpty()) {
            return plane.listenerNames();
        }
        for (String value : expand) {
            if (!value.equals("status") && !value.equals("info")) {
                return Future.failedFuture(ControlPlaneException.badRequest("query parameter expand: 'status' or "
                        + "'info', got '" + value + "'"));
            }
        }
        Future<Map<String, ListenerStatus>> statuses = expand.contains("status") ? firstPages()
                : Future.succeededFuture(Map.of());
        Future<Map<String, Object>> infos = expand.contains("info") ? plane.listenerNames().compose(names ->
                Future.all(names.stream().map(plane::listener).toList()).map(done -> {
                    Map<String, Object> out = new TreeMap<>();
                    for (int i = 0; i < names.size(); i++) {
                        out.put(names.get(i), done.resultAt(i));
                    }
                    return out;
                })) : Future.succeededFuture(Map.of());
        return Future.all(statuses, infos).map(done -> {
            Map<String, Map<String, Object>> out = new TreeMap<>();
            statuses.result().forEach((name, status) -> out.computeIfAbsent(name, n -> new TreeMap<>()).put("status", status));
            infos.result().forEach((name, info) -> out.computeIfAbsent(name, n -> new TreeMap<>()).put("info", info));
            return out;
        });
    }

    /** Each listener's status with its first page of shards (a listener's size never makes the list unbounded). */
    private Future<Map<String, ListenerStatus>> firstPages() {
        return plane.listenerNames().compose(names -> {
            java.util.List<Future<ListenerStatus>> all = names.stream()
                    .map(name -> plane.listenerStatus(name, ShardPage.FIRST)).toList();
            return Future.all(all).map(done -> {
                Map<String, ListenerStatus> out = new TreeMap<>();
                for (int i = 0; i < names.size(); i++) {
                    out.put(names.get(i), done.resultAt(i));
                }
                return out;
            });
        });
    }

    /**
     * The page of shards a status request asks for ({@code ?offset=&limit=}): 400 naming the limit when it asks for
     * more than {@link ShardPage#MAX_LIMIT} shards.
     */
    private static ShardPage page(RoutingContext ctx) {
        return new ShardPage(Requests.intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE),
                Requests.intParam(ctx, "limit", ShardPage.DEFAULT_LIMIT, 1, ShardPage.MAX_LIMIT));
    }

    private Future<?> create(RoutingContext ctx) {
        JsonObject body = Requests.jsonBody(ctx);
        Requests.onlyFields(body, CREATE_FIELDS);
        Object name = body.getValue("name");
        if (!(name instanceof String text) || text.isBlank()) {
            throw ControlPlaneException.badRequest("name: required (a string)");
        }
        Map<String, String> config = Requests.stringMap(body, "config");
        TargetState initial = initialState(body.getValue("initial_state"));
        return plane.createListener(text, config, initial).map(info -> {
            ctx.response().setStatusCode(201);
            return info;
        });
    }

    private static TargetState initialState(Object value) {
        if (value == null) {
            return TargetState.STARTED;
        }
        String text = String.valueOf(value).toUpperCase(Locale.ROOT);
        return switch (text) {
            case "RUNNING", "STARTED" -> TargetState.STARTED;
            case "PAUSED" -> TargetState.PAUSED;
            case "STOPPED" -> TargetState.STOPPED;
            default -> throw ControlPlaneException.badRequest("initial_state: must be RUNNING, PAUSED or STOPPED, got '"
                    + value + "'");
        };
    }

    private void target(RoutingContext ctx, TargetState state) {
        Requests.noContent(ctx, 202, plane.setTargetState(ctx.pathParam("name"), state));
    }

    /**
     * KIP-745: both flags false answers 204 with no body (Connect's original restart); else 202 and the status.
     * {@code includeTasks} is Connect's name of {@code includeMembers}.
     */
    private void restartOrRespond(RoutingContext ctx) {
        if (!includeMembers(ctx) && !Requests.flag(ctx, "onlyFailed")) {
            Requests.noContent(ctx, 204, Requests.guarded(() -> plane.restart(ctx.pathParam("name"), false, false)));
            return;
        }
        Requests.guarded(() -> restart(ctx)).onSuccess(status -> ctx.json(status)).onFailure(ctx::fail);
    }

    private Future<ListenerStatus> restart(RoutingContext ctx) {
        boolean includeMembers = includeMembers(ctx);
        boolean onlyFailed = Requests.flag(ctx, "onlyFailed");
        return plane.restart(ctx.pathParam("name"), includeMembers, onlyFailed).map(status -> {
            ctx.response().setStatusCode(202);
            return status;
        });
    }

    private static boolean includeMembers(RoutingContext ctx) {
        return Requests.flag(ctx, "includeMembers") || Requests.flag(ctx, "includeTasks");
    }

    private void shard(RoutingContext ctx, boolean paused) {
        Future<Void> action = Requests.guarded(() -> {
            ShardId shard;
            try {
                shard = new ShardId(ctx.pathParam("stream"), Requests.shardIndex(ctx));
            } catch (IllegalArgumentException e) {
                throw ControlPlaneException.badRequest("stream: " + e.getMessage());
            }
            return plane.setShardPaused(ctx.pathParam("name"), shard, paused);
        });
        Requests.noContent(ctx, 202, action);
    }
}
