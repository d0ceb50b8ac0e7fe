package io.shardline.runtime.rest.route;

import io.shardline.runtime.control.ControlPlane;
import io.shardline.runtime.rest.entity.ListenerStatus;
import io.vertx.ext.web.Router;

/**
 * A listener's members as Kafka Connect's tasks: {@code GET /listeners/{name}/members} (every member on every
 * worker, sorted by id), {@code GET /listeners/{name}/members/{id}/status}, {@code POST
 * /listeners/{name}/members/{id}/restart} (202 and the member as RESTARTING: it leaves its group and rejoins on its
 * worker, so its member epoch moves; the listener's other members keep running). Unknown members are 404. Stateless.
 */
final class MemberRoutes {

    private MemberRoutes() {
    }

    /** Adds the routes to the {@code /listeners} sub-router. */
    static void addTo(Router router, ControlPlane plane) {
        router.get("/:name/members").respond(ctx -> plane.listenerStatus(ctx.pathParam("name"))
                .map(ListenerStatus::members));
        router.get("/:name/members/:member/status").respond(ctx -> plane.member(ctx.pathParam("name"),
                ctx.pathParam("member")));
        router.post("/:name/members/:member/restart").respond(ctx -> plane.restartMember(ctx.pathParam("name"),
                ctx.pathParam("member")).map(status -> {
                    ctx.response().setStatusCode(202);
                    return status;
                }));
    }
}
