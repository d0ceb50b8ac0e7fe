package io.shardline.runtime.rest;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.runtime.rest.RestHarness.Reply;
import io.shardline.runtime.topology.StreamTopology;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * After a change of a stream's shard count, a running listener's definition still names the count it started with;
 * its views and operations follow the stream's topology instead, over REST on a real Redis: the status and the
 * positions list every shard the stream has now (while a change runs, every shard of its chain: the added ones, and
 * the retiring ones until the change completes), a shard the change added can be paused, and positions move only on
 * a {@code STABLE} stream (409 naming the change and the commands that end it). The leader's completion of a change
 * is written here as the leader writes it (its task is tested in {@code ReshardTaskTest}).
 */
@RedisTest
class ListenerFollowsTopologyTest {

    private RestHarness rest;

    @BeforeEach
    void start(RedisServer redis) {
        rest = RestHarness.onEmptyRedis(redis.uri(), "follows", RestSettings.loopback(0));
        assertEquals(201, rest.call(HttpMethod.POST, "/streams", "{\"stream\": \"orders\", \"shards\": 4}").status());
        Reply listener = rest.call(HttpMethod.POST, "/listeners", """
                {"name": "billing", "config": {"handler": "configured", "streams": "orders:4", "group": "bill",
                 "handler.config.prefix": "p-"}}""");
        assertEquals(201, listener.status(), listener::toString);
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void aGrownStreamsNewShardsAreShownPausedAndMovedWithTheListener() {
        assertEquals(4, statusShards().size());
        assertEquals(202, rest.call(HttpMethod.POST, "/streams/orders/reshard", "{\"shards\": 6}").status());

        assertEquals(indexes(6), statusShards(), "the status lists the shards the change adds");
        assertEquals(indexes(6), offsetShards(), "the positions too");
        Reply pause = rest.call(HttpMethod.PUT, "/listeners/billing/shards/orders/5/pause");
        assertEquals(202, pause.status(), pause::toString);
        Reply beyond = rest.call(HttpMethod.PUT, "/listeners/billing/shards/orders/6/pause");
        assertEquals(404, beyond.status());
        assertThat(beyond.json().getString("message")).contains("has 6 shards");

        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/billing/stop").status());
        Reply during = rest.call(HttpMethod.DELETE, "/listeners/billing/offsets");
        assertEquals(409, during.status(), during::toString);
        assertThat(during.json().getString("message")).contains("while stream 'orders' is RESHARDING",
                "bin/shardline streams describe orders", "bin/shardline streams rollback orders");
        assertEquals(200, rest.call(HttpMethod.DELETE, "/listeners/billing/offsets?dry_run=true").status(),
                "a dry run may be asked during a change");

        completeAt(6);
        Reply reset = rest.call(HttpMethod.DELETE, "/listeners/billing/offsets");
        assertEquals(200, reset.status(), reset::toString);
        assertEquals(6, reset.json().getJsonArray("changes").size(), "the reset moves every shard the stream has");
        assertEquals("orders:4", rest.call(HttpMethod.GET, "/listeners/billing/config").json().getString("streams"),
                "the definition is not rewritten");
    }

    @Test
    void aShrunkStreamsRetiringShardsAreShownUntilTheChangeCompletes() {
        assertEquals(202, rest.call(HttpMethod.POST, "/streams/orders/reshard", "{\"shards\": 2}").status());
        assertEquals(indexes(4), statusShards(), "shards 2 and 3 are read until drained");
        completeAt(2);
        assertEquals(indexes(2), statusShards(), "the retired shards are gone from the status");
        assertEquals(indexes(2), offsetShards());
    }

    /** Writes the topology as the leader's completion of a change does: stable at {@code shards}. */
    private void completeAt(int shards) {
        String key = StreamTopology.key("orders");
        result(rest.redis.send(Request.cmd(Command.HSET).arg(key).arg("state").arg("STABLE").arg("shards").arg(shards)),
                RestHarness.WAIT);
        result(rest.redis.send(Request.cmd(Command.HDEL).arg(key).arg("target_shards").arg("from_shards").arg("layouts")
                .arg("cutover").arg("step").arg("progress")), RestHarness.WAIT);
    }

    private List<Integer> statusShards() {
        Reply status = rest.call(HttpMethod.GET, "/listeners/billing/status");
        assertEquals(200, status.status(), status::toString);
        return shardIndexes(status.json().getJsonArray("shards"));
    }

    private List<Integer> offsetShards() {
        Reply offsets = rest.call(HttpMethod.GET, "/listeners/billing/offsets");
        assertEquals(200, offsets.status(), offsets::toString);
        return shardIndexes(offsets.json().getJsonArray("shards"));
    }

    private static List<Integer> shardIndexes(JsonArray shards) {
        return IntStream.range(0, shards.size()).mapToObj(i -> ((JsonObject) shards.getValue(i)).getInteger("shard"))
                .toList();
    }

    private static List<Integer> indexes(int count) {
        return IntStream.range(0, count).boxed().toList();
    }
}
