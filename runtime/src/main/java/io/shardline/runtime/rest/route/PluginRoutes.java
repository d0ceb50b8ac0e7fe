package io.shardline.runtime.rest.route;

import io.shardline.runtime.control.ControlPlane;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.util.Objects;

/**
 * {@code /plugins}: the installed handler plugins, and validation of a listener configuration against
 * one of them ({@code PUT /plugins/{class}/config/validate}, body = the configuration as a JSON object of
 * strings; always 200 with every error in the body, as Connect's validate endpoint; 404 when the class is
 * not a discovered handler plugin).
 */
public final class PluginRoutes {

    private final ControlPlane plane;

    /** Routes over {@code plane}. */
    public PluginRoutes(ControlPlane plane) {
        this.plane = Objects.requireNonNull(plane, "plane");
    }

    /** The sub-router, to be mounted at {@code /plugins*}. */
    public Router router(Vertx vertx) {
        Router router = Router.router(vertx);
        router.get("/").respond(ctx -> plane.plugins());
        router.put("/:class/config/validate").respond(ctx -> Requests.guarded(() -> plane.validate(
                ctx.pathParam("class"), Requests.strings(Requests.jsonBody(ctx), ""))));
        return router;
    }
}
