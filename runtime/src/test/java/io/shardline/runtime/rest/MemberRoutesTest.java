package io.shardline.runtime.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.runtime.rest.RestHarness.Reply;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A listener's members as Connect's tasks over REST (list, status, restart of one member on its worker),
 * {@code ?expand=info} and {@code includeTasks}, over a real Redis and a {@link FakeClusterView} that reports the
 * members. That a restart really moves member epochs is proven on real workers ({@code ListenerMembersIntegrationTest}).
 */
@RedisTest
class MemberRoutesTest {

    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    private static final String ORDERS = """
            {"name": "orders", "config": {"handler": "configured", "streams": "orders:2",
             "handler.config.prefix": "p-"}}""";

    private RestHarness rest;

    @BeforeEach
    void start(RedisServer redis) {
        rest = new RestHarness(redis.uri(), "members" + CLUSTERS.incrementAndGet(), RestSettings.loopback(0));
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", ORDERS).status());
        rest.cluster.members.put("orders", List.of(
                new MemberStatus("worker-b-orders-m0", "worker-b", ListenerState.FAILED, 3, List.of(), "boom"),
                new MemberStatus("worker-a-orders-m0", "worker-a", ListenerState.RUNNING, 4, List.of("orders:0",
                        "orders:1"), null)));
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void membersAreListedSortedAndOneHasItsStatus() {
        JsonArray members = rest.call(HttpMethod.GET, "/listeners/orders/members").array();
        assertEquals(2, members.size());
        assertEquals("worker-a-orders-m0", members.getJsonObject(0).getString("id"));
        assertEquals(new JsonObject().put("id", "worker-b-orders-m0").put("worker_id", "worker-b").put("state", "FAILED")
                .put("epoch", 3).put("shards", new JsonArray()).put("trace", "boom"), members.getJsonObject(1));

        JsonObject one = rest.call(HttpMethod.GET, "/listeners/orders/members/worker-a-orders-m0/status").json();
        assertEquals("RUNNING", one.getString("state"));
        assertEquals(4, one.getInteger("epoch"));

        Reply unknown = rest.call(HttpMethod.GET, "/listeners/orders/members/nope/status");
        assertEquals(404, unknown.status());
        assertThat(unknown.json().getString("message")).contains("no member 'nope'").contains("worker-a-orders-m0");
        assertEquals(404, rest.call(HttpMethod.GET, "/listeners/nope/members").status());
    }

    @Test
    void aMemberRestartsOnItsWorker() {
        Reply restart = rest.call(HttpMethod.POST, "/listeners/orders/members/worker-b-orders-m0/restart");

        assertEquals(202, restart.status(), restart::toString);
        assertEquals("RESTARTING", restart.json().getString("state"));
        assertEquals(List.of("orders member=worker-b-orders-m0 on worker-b"), rest.cluster.restarts);
        assertEquals(404, rest.call(HttpMethod.POST, "/listeners/orders/members/nope/restart").status());
    }

    @Test
    void includeTasksIsConnectsNameOfIncludeMembers() {
        Reply restart = rest.call(HttpMethod.POST, "/listeners/orders/restart?includeTasks=true&onlyFailed=true");

        assertEquals(202, restart.status(), restart::toString);
        assertEquals(List.of("orders includeMembers=true onlyFailed=true"), rest.cluster.restarts);
    }

    @Test
    void expandInfoAndStatusAsConnect() {
        JsonObject info = rest.call(HttpMethod.GET, "/listeners?expand=info").json();
        assertEquals("p-", info.getJsonObject("orders").getJsonObject("info").getJsonObject("config")
                .getString("handler.config.prefix"));
        assertThat(info.getJsonObject("orders").fieldNames()).containsExactly("info");

        JsonObject both = rest.call(HttpMethod.GET, "/listeners?expand=status&expand=info").json();
        assertThat(both.getJsonObject("orders").fieldNames()).containsExactlyInAnyOrder("info", "status");
        assertEquals("FAILED", both.getJsonObject("orders").getJsonObject("status").getString("state"));
    }
}
