package io.shardline.runtime.rest;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.runtime.rest.RestHarness.Reply;
import io.shardline.runtime.topology.TopologyCheck;
import io.shardline.runtime.topology.TopologyMismatchException;
import io.shardline.runtime.topology.TopologyStore;
import io.shardline.runtime.topology.StreamSpec;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The streams routes over a real Redis: {@code POST /streams} creates a topology (201; 409 when it exists, naming
 * its count; 400 for a bad count or name), {@code GET /streams} and {@code GET /streams/{stream}} show it with the
 * groups on it and its history, and a listener whose count differs is refused with 409 on create, {@code PUT} and
 * {@code PATCH}. The start-time check ({@link TopologyCheck#ensure}) creates a missing topology and refuses a
 * mismatch.
 */
@RedisTest
class StreamRoutesTest {

    private RestHarness rest;

    @BeforeEach
    void start(RedisServer redis) {
        rest = RestHarness.onEmptyRedis(redis.uri(), "streams", RestSettings.loopback(0));
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void aCreatedStreamIsListedAndDescribedWithItsGroups() {
        Reply created = rest.call(HttpMethod.POST, "/streams", "{\"stream\": \"orders\", \"shards\": 4}");
        assertEquals(201, created.status(), created::toString);
        assertEquals(new JsonObject().put("stream", "orders").put("shards", 4).put("routing_epoch", 1)
                .put("state", "STABLE").put("groups", List.of()), without(created.json(), "history"));
        Reply listener = rest.call(HttpMethod.POST, "/listeners", """
                {"name": "billing", "config": {"handler": "configured", "streams": "orders:4", "group": "bill",
                 "handler.config.prefix": "p-"}}""");
        assertEquals(201, listener.status(), listener::toString);

        JsonObject listed = rest.call(HttpMethod.GET, "/streams").array().getJsonObject(0);
        assertEquals(List.of("bill"), listed.getJsonArray("groups").getList());
        JsonObject described = rest.call(HttpMethod.GET, "/streams/orders").json();
        assertEquals(4, described.getInteger("shards"));
        JsonObject change = described.getJsonArray("history").getJsonObject(0);
        assertEquals("created over REST", change.getString("reason"));
        assertEquals(1, change.getInteger("routing_epoch"));
        assertEquals(404, rest.call(HttpMethod.GET, "/streams/nothing").status());
    }

    @Test
    void creatingAnExistingStreamOrABadOneIsRefused() {
        assertEquals(201, rest.call(HttpMethod.POST, "/streams", "{\"stream\": \"orders\", \"shards\": 4}").status());
        Reply again = rest.call(HttpMethod.POST, "/streams", "{\"stream\": \"orders\", \"shards\": 8}");
        assertEquals(409, again.status());
        assertThat(again.json().getString("message")).contains("exists with 4 shards");
        assertEquals(400, rest.call(HttpMethod.POST, "/streams", "{\"stream\": \"orders2\", \"shards\": 0}").status());
        assertEquals(400, rest.call(HttpMethod.POST, "/streams", "{\"stream\": \"a{b\", \"shards\": 2}").status());
        assertEquals(400, rest.call(HttpMethod.POST, "/streams", "{\"stream\": \"orders2\"}").status());
    }

    @Test
    void aListenerWithAnotherShardCountIsRefusedOnCreatePutAndPatch() {
        assertEquals(201, rest.call(HttpMethod.POST, "/streams", "{\"stream\": \"orders\", \"shards\": 4}").status());
        Reply create = rest.call(HttpMethod.POST, "/listeners", """
                {"name": "billing", "config": {"handler": "configured", "streams": "orders:8",
                 "handler.config.prefix": "p-"}}""");
        assertEquals(409, create.status(), create::toString);
        assertThat(create.json().getString("message")).contains("streams=orders:8", "has 4 shards",
                "docs/operations.md");
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", """
                {"name": "billing", "config": {"handler": "configured", "streams": "orders:4",
                 "handler.config.prefix": "p-"}}""").status());
        Reply put = rest.call(HttpMethod.PUT, "/listeners/billing/config", """
                {"handler": "configured", "streams": "orders:16", "handler.config.prefix": "p-"}""");
        assertEquals(409, put.status(), put::toString);
        assertThat(put.json().getString("message")).contains("streams=orders:16", "has 4 shards");
        Reply patch = rest.call(HttpMethod.PATCH, "/listeners/billing/config", "{\"streams\": \"orders:2\"}");
        assertEquals(409, patch.status(), patch::toString);
        assertEquals("orders:4", rest.call(HttpMethod.GET, "/listeners/billing/config").json().getString("streams"));
    }

    @Test
    void theStartCheckCreatesAMissingTopologyAndRefusesAMismatch() throws Exception {
        TopologyCheck check = new TopologyCheck(new TopologyStore(rest.redis, "streams"));
        result(check.ensure("first", List.of(new StreamSpec("payments", 3))), RestHarness.WAIT);
        assertEquals(3, rest.call(HttpMethod.GET, "/streams/payments").json().getInteger("shards"));
        try {
            check.ensure("second", List.of(new StreamSpec("payments", 5))).toCompletionStage().toCompletableFuture()
                    .get();
            throw new AssertionError("a mismatch was accepted");
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(TopologyMismatchException.class)
                    .hasMessageContaining("listener 'second': streams=payments:5 but stream 'payments' has 3 shards");
        }
        assertEquals(3, rest.call(HttpMethod.GET, "/streams/payments").json().getInteger("shards"));
    }

    private static JsonObject without(JsonObject json, String field) {
        JsonObject copy = json.copy();
        copy.remove(field);
        return copy;
    }
}
