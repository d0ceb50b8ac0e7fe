package io.shardline.runtime.rest.route;

import io.shardline.runtime.control.ControlPlane;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.util.Objects;

/**
 * {@code GET /groups} (every group with its streams, listeners, state, members and total lag),
 * {@code DELETE /groups/{group}} (a group without live members: 409 otherwise), {@code /groups/{group}}: the
 * coordinator's read model (epochs, members, target vs current assignment, pending revocations) and {@code /groups/{group}/audit?limit=N} (recent decisions, newest last).
 */
public final class GroupRoutes {

    /** Audit events returned when {@code limit} is not given. */
    public static final int DEFAULT_AUDIT_LIMIT = 100;
    /** The largest {@code limit} accepted. */
    public static final int MAX_AUDIT_LIMIT = 10_000;

    private final ControlPlane plane;

    /** Routes over {@code plane}. */
    public GroupRoutes(ControlPlane plane) {
        this.plane = Objects.requireNonNull(plane, "plane");
    }

    /** The sub-router, to be mounted at {@code /groups*}. */
    public Router router(Vertx vertx) {
        Router router = Router.router(vertx);
        router.get("/").respond(ctx -> plane.groups());
        router.delete("/:group").handler(ctx -> Requests.noContent(ctx, 204, plane.deleteGroup(ctx.pathParam("group"))));
        router.get("/:group").respond(ctx -> plane.group(ctx.pathParam("group")));
        router.get("/:group/audit").respond(ctx -> Requests.guarded(() -> plane.audit(ctx.pathParam("group"),
                Requests.intParam(ctx, "limit", DEFAULT_AUDIT_LIMIT, 1, MAX_AUDIT_LIMIT))));
        return router;
    }
}
