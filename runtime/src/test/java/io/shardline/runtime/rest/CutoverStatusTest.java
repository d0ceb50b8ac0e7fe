package io.shardline.runtime.rest;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.control.ListenerStatusSampler;
import io.shardline.runtime.metrics.ListenerHistory;
import io.shardline.runtime.metrics.ShardMetrics;
import io.shardline.runtime.rest.RestHarness.Reply;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.shard.Fence;
import io.shardline.runtime.shard.RuntimeShardRedis;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A shard whose group waits at a resharding cutover shows it: {@code GET /listeners/{name}/status} gives the epoch
 * and since when ({@code cutover_epoch}, {@code cutover_since_ms}), and {@code shardline_shard_cutover_wait_seconds}
 * how long. The wait is the one the shard library's read records (docs/protocol.md section 8b), over a real Redis.
 */
@RedisTest
class CutoverStatusTest {

    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    private static final String ORDERS = """
            {"name": "orders", "config": {"handler": "configured", "streams": "orders:2",
             "handler.config.prefix": "p-", "start.from": "earliest"}}""";
    private static final ShardId S0 = new ShardId("orders", 0);

    private RestHarness rest;
    private ShardCommands commands;

    @BeforeEach
    void start(RedisServer redis) {
        rest = new RestHarness(redis.uri(), "cutover" + CLUSTERS.incrementAndGet(), RestSettings.loopback(0));
        send(Request.cmd(Command.FLUSHALL));
        commands = new ShardCommands(new RuntimeShardRedis(rest.redis));
        result(commands.loadLibrary(), RestHarness.WAIT);
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void statusAndMetricShowTheEpochAShardWaitsAtAndSinceWhen() {
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", ORDERS).status());
        result(commands.ensureGroup(S0, "orders", "0"), RestHarness.WAIT);
        result(commands.setOwner(S0, "orders", "worker-a-orders-m0", 1), RestHarness.WAIT);
        send(Request.cmd(Command.HSET).arg(Fence.routingKey(S0)).arg("epoch").arg(2).arg("cutover:2").arg("0-0"));
        long before = System.currentTimeMillis();
        ShardCommands.ReadResult read = result(commands.readNew(new Fence(S0, "orders", "worker-a-orders-m0", 1), 10),
                RestHarness.WAIT);
        assertThat(read.waitingEpoch()).isEqualTo(2);

        JsonObject shard0 = rest.call(HttpMethod.GET, "/listeners/orders/status").json().getJsonArray("shards").getJsonObject(0);
        assertEquals(2, shard0.getInteger("cutover_epoch"), shard0::encode);
        assertThat(shard0.getLong("cutover_since_ms")).isBetween(before - 60_000, System.currentTimeMillis() + 60_000);
        JsonObject shard1 = rest.call(HttpMethod.GET, "/listeners/orders/status").json().getJsonArray("shards").getJsonObject(1);
        assertThat(shard1.containsKey("cutover_epoch")).as("a shard not waiting").isFalse();

        rest.cluster.members.put("orders", List.of(new MemberStatus("worker-a-orders-m0", "worker-a",
                ListenerState.RUNNING, 1, List.of("orders:0"), null)));
        long sinceMs = shard0.getLong("cutover_since_ms");
        ListenerStatusSampler sampler = new ListenerStatusSampler(rest.vertx, rest.plane, "worker-a", rest.registry,
                new ShardMetrics(rest.registry, () -> sinceMs + 4_000), new ListenerHistory(), () -> true, () -> 1_000L);
        result(sampler.sample(), RestHarness.WAIT);
        Reply text = rest.call(HttpMethod.GET, "/metrics");
        assertThat(text.body()).contains("shardline_shard_cutover_wait_seconds{listener=\"orders\",stream=\"orders\",shard=\"0\",} 4.0")
                .contains("shardline_shard_cutover_wait_seconds{listener=\"orders\",stream=\"orders\",shard=\"1\",} 0.0");
    }

    @Test
    void aReleasedBarrierIsNoLongerShownAsAWait() {
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", ORDERS).status());
        result(commands.ensureGroup(S0, "orders", "0"), RestHarness.WAIT);
        result(commands.setOwner(S0, "orders", "worker-a-orders-m0", 1), RestHarness.WAIT);
        send(Request.cmd(Command.HSET).arg(Fence.routingKey(S0)).arg("epoch").arg(2).arg("cutover:2").arg("0-0"));
        result(commands.readNew(new Fence(S0, "orders", "worker-a-orders-m0", 1), 10), RestHarness.WAIT);
        send(Request.cmd(Command.HSET).arg(Fence.routingKey(S0)).arg("released:orders").arg(2));

        JsonObject shard0 = rest.call(HttpMethod.GET, "/listeners/orders/status").json().getJsonArray("shards").getJsonObject(0);
        assertThat(shard0.containsKey("cutover_epoch")).as(shard0.encode()).isFalse();
        assertThat(shard0.containsKey("cutover_since_ms")).isFalse();
    }

    private void send(Request request) {
        result(rest.redis.send(request), RestHarness.WAIT);
    }
}
