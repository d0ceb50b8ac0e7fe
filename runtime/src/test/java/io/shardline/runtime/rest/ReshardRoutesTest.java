package io.shardline.runtime.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.runtime.rest.RestHarness.Reply;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /streams/{stream}/reshard} and {@code .../reshard/rollback} over a real Redis: 202 with the stream
 * (its topology moved to the new routing epoch and state), 409 while a change runs, for an unchanged count and for
 * a rollback with nothing to roll back, 400 for a bad count, 404 for a stream without topology; a change may start
 * during a rollback.
 */
@RedisTest
class ReshardRoutesTest {

    private RestHarness rest;

    @BeforeEach
    void start(RedisServer redis) {
        rest = RestHarness.onEmptyRedis(redis.uri(), "reshard", RestSettings.loopback(0));
        assertEquals(201, rest.call(HttpMethod.POST, "/streams", "{\"stream\": \"orders\", \"shards\": 4}").status());
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void aReshardMovesTheTopologyToTheNewEpochAndASecondOneIsRefused() {
        Reply started = rest.call(HttpMethod.POST, "/streams/orders/reshard", "{\"shards\": 8}");
        assertEquals(202, started.status(), started::toString);
        JsonObject view = started.json();
        assertEquals("RESHARDING", view.getString("state"));
        assertEquals(8, view.getInteger("shards"));
        assertEquals(2, view.getInteger("routing_epoch"));
        assertEquals(4, view.getInteger("from_shards"));
        assertEquals(new JsonObject().put("1", 4).put("2", 8), view.getJsonObject("layouts"));
        assertThat(view.getJsonArray("history").getJsonObject(1).getString("reason")).contains("reshard to 8");

        Reply again = rest.call(HttpMethod.POST, "/streams/orders/reshard", "{\"shards\": 16}");
        assertEquals(409, again.status());
        assertThat(again.json().getString("message")).contains("already changing from 4 to 8")
                .contains("bin/shardline streams rollback orders");
    }

    @Test
    void aRollbackGoesBackUnderANewEpochAndAChangeMayStartDuringIt() {
        assertEquals(202, rest.call(HttpMethod.POST, "/streams/orders/reshard", "{\"shards\": 8}").status());
        Reply back = rest.call(HttpMethod.POST, "/streams/orders/reshard/rollback", "");
        assertEquals(202, back.status(), back::toString);
        assertEquals("ROLLING_BACK", back.json().getString("state"));
        assertEquals(4, back.json().getInteger("shards"));
        assertEquals(3, back.json().getInteger("routing_epoch"));
        assertEquals(409, rest.call(HttpMethod.POST, "/streams/orders/reshard/rollback", "").status());
        Reply during = rest.call(HttpMethod.POST, "/streams/orders/reshard", "{\"shards\": 6}");
        assertEquals(202, during.status(), during::toString);
        assertEquals(4, during.json().getInteger("routing_epoch"));
    }

    @Test
    void badRequestsAreRefusedWithWhatIsWrong() {
        Reply unchanged = rest.call(HttpMethod.POST, "/streams/orders/reshard", "{\"shards\": 4}");
        assertEquals(409, unchanged.status());
        assertThat(unchanged.json().getString("message")).contains("has 4 shards already");
        assertEquals(400, rest.call(HttpMethod.POST, "/streams/orders/reshard", "{\"shards\": 0}").status());
        assertEquals(400, rest.call(HttpMethod.POST, "/streams/orders/reshard", "{\"shards\": 2.5}").status());
        assertEquals(400, rest.call(HttpMethod.POST, "/streams/orders/reshard", "{\"count\": 2}").status());
        assertEquals(404, rest.call(HttpMethod.POST, "/streams/nothing/reshard", "{\"shards\": 2}").status());
        Reply nothing = rest.call(HttpMethod.POST, "/streams/orders/reshard/rollback", "");
        assertEquals(409, nothing.status());
        assertThat(nothing.json().getString("message")).contains("no change to roll back");
        assertEquals("STABLE", rest.call(HttpMethod.GET, "/streams/orders").json().getString("state"));
    }
}
