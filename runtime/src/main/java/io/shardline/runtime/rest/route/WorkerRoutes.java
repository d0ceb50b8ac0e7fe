package io.shardline.runtime.rest.route;

import io.shardline.runtime.control.ControlPlane;
import io.vertx.ext.web.Router;
import java.util.Objects;

/**
 * {@code GET /} (version, cluster, worker, leader), {@code GET /workers} and {@code GET /health}
 * (200 when ready, 503 while starting).
 */
public final class WorkerRoutes {

    private final ControlPlane plane;

    /** Routes over {@code plane}. */
    public WorkerRoutes(ControlPlane plane) {
        this.plane = Objects.requireNonNull(plane, "plane");
    }

    /** Adds the routes to the root router (they are not under a common prefix). */
    public void addTo(Router router) {
        router.get("/").respond(ctx -> plane.serverInfo());
        router.get("/workers").respond(ctx -> plane.workers());
        router.get("/health").respond(ctx -> plane.health().map(health -> {
            ctx.response().setStatusCode(health.ready() ? 200 : 503);
            return health;
        }));
    }
}
