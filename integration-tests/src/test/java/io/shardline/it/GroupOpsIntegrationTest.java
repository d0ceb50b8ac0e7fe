package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Operating groups on two worker JVMs from the built distribution (docs/operations.md, "Groups"): {@code GET /groups} lists every
 * group with its listener, state, members and lag; {@code DELETE /groups/{group}} is refused (409) while its
 * listener is not STOPPED, and once it is stopped removes the Redis consumer group and owner hash of every shard
 * and the audit stream, and makes the leader's coordinator forget the group (asked of the non-leader): a resumed
 * listener builds the group anew, from a lower group epoch than the one deleted. An orphaned group (its REST
 * listener deleted) is listed EMPTY and deleted too; an unknown group is 404.
 *
 * <p>Tagged {@code integration}. Run it alone with {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=GroupOpsIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class GroupOpsIntegrationTest {

    private static final int SHARDS = 2;
    private static final String TOKEN = "it-groups-token";
    private static final Duration JOIN = Duration.ofSeconds(150);
    /** A state change reaches every worker within a heartbeat interval (500 ms); the rest is a busy machine. */
    private static final Duration SETTLE = Duration.ofSeconds(60);

    private ItFleet fleet;

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void groupsAreListedAndDeletedOnlyWhenUnused(RedisServer redis) throws Exception {
        fleet = ItFleet.create("groups");
        List<Integer> ports = FreePorts.take(4);
        fleet.listener("orders", "handler=logging-sink", "handler.config.log.every=1000", "streams=orders:" + SHARDS,
                "group=orders", "concurrency=1", "start.from=earliest");
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 2));
        common.put("cluster.failure.timeout.ms", "3000");
        common.put("redis.url", redis.uri());
        common.put("session.timeout.ms", "4000");
        common.put("heartbeat.interval.ms", "500");
        common.put("rest.auth.token", TOKEN);
        RestClient leader = new RestClient(ports.get(2), TOKEN);
        RestClient other = new RestClient(ports.get(3), TOKEN);
        ClusterProbe probe = new ClusterProbe(redis);
        fleet.start("w0", ItFleet.withPorts(common, ports.get(0), ports.get(2))).await("joined cluster", JOIN);
        fleet.start("w1", ItFleet.withPorts(common, ports.get(1), ports.get(3))).await("joined cluster", JOIN);
        StreamProducer.produce(redis, "orders", SHARDS, 10);
        probe.awaitDrained("orders", "orders", SHARDS, SETTLE);

        // GET /groups: orders, used by listener orders, with both workers' members and nothing left to read.
        JsonObject orders = awaitGroup(other, "orders", g -> g.getInteger("members") == 2
                && Long.valueOf(0).equals(g.getLong("total_lag")), "group orders with 2 members and no lag");
        assertThat(orders.getJsonArray("streams").getList()).containsExactly("orders:2");
        assertThat(orders.getJsonArray("listeners").getList()).containsExactly("orders");
        assertThat(orders.getString("state")).isEqualTo("ACTIVE");
        assertThat(orders.getString("listener_state")).isEqualTo("RUNNING");

        // A running listener's group cannot be deleted.
        RestClient.Reply refused = other.call("DELETE", "/groups/orders", null, true);
        assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        assertThat(refused.json().getString("message")).contains("listener orders", "not STOPPED");
        assertThat(hasRedisGroup(redis, "orders", 0, "orders")).isTrue();

        // Stopped (its members leave), it is deleted: Redis groups, owner hashes and audit stream go.
        assertThat(leader.call("PUT", "/listeners/orders/stop", null, true).status()).isEqualTo(202);
        awaitGroup(other, "orders", g -> "EMPTY".equals(g.getString("state")), "group orders EMPTY after stop");
        int deletedEpoch = leader.get("/groups/orders").getInteger("group_epoch");
        RestClient.Reply deleted = other.call("DELETE", "/groups/orders", null, true);
        assertThat(deleted.status()).as(deleted.body()).isEqualTo(204);
        for (int i = 0; i < SHARDS; i++) {
            assertThat(hasRedisGroup(redis, "orders", i, "orders")).as("consumer group on orders:%d", i).isFalse();
            assertThat(exists(redis, new ShardId("orders", i).ownerKey("orders"))).isFalse();
        }
        assertThat(exists(redis, "{shardline:" + fleet.cluster + "}:audit:orders")).isFalse();
        // The leader's coordinator forgot it; the listener still names it.
        assertThat(leader.call("GET", "/groups/orders", null, true).status()).isEqualTo(404);
        assertThat(group(other, "orders").getString("state")).isEqualTo("NOT_CREATED");

        // Resumed, the listener builds the group anew (a fresh epoch) and reads from start.from again.
        assertThat(leader.call("PUT", "/listeners/orders/resume", null, true).status()).isEqualTo(202);
        awaitGroup(other, "orders", g -> g.getInteger("members") == 2, "group orders recreated with 2 members");
        assertThat(leader.get("/groups/orders").getInteger("group_epoch")).isLessThan(deletedEpoch);
        StreamProducer.produce(redis, "orders", SHARDS, 5);
        probe.awaitDrained("orders", "orders", SHARDS, SETTLE);

        // An orphaned group: its REST listener is deleted, the group stays EMPTY until deleted.
        JsonObject config = new JsonObject().put("handler", "logging-sink").put("streams", "audit:1")
                .put("group", "audit-group").put("start.from", "earliest").put("concurrency", "1");
        assertThat(leader.call("POST", "/listeners", new JsonObject().put("name", "audit").put("config", config), true)
                .status()).isEqualTo(201);
        awaitGroup(leader, "audit-group", g -> g.getInteger("members") == 2, "group audit-group with 2 members");
        assertThat(leader.call("DELETE", "/listeners/audit", null, true).status()).isEqualTo(204);
        JsonObject orphan = awaitGroup(leader, "audit-group", g -> "EMPTY".equals(g.getString("state")),
                "audit-group EMPTY after its listener is gone");
        assertThat(orphan.getJsonArray("listeners")).isEmpty();
        assertThat(orphan.getJsonArray("streams").getList()).containsExactly("audit:1");
        assertThat(leader.call("DELETE", "/groups/audit-group", null, true).status()).isEqualTo(204);
        assertThat(groups(leader).stream().map(o -> ((JsonObject) o).getString("group")))
                .containsExactly("orders");
        assertThat(leader.call("DELETE", "/groups/audit-group", null, true).status()).isEqualTo(404);
        assertThat(leader.call("DELETE", "/groups/orders", null, false).status()).isEqualTo(401);
    }

    @Test
    void positionsMoveOnlyWhileStoppedDroppingPendingEntries(RedisServer redis) throws Exception {
        fleet = ItFleet.create("offsets");
        List<Integer> ports = FreePorts.take(2);
        // Entries with known ids: shard s holds 1000-0 .. 1009-0 (epoch 1970, so -15m lies after all of them).
        try (RespProbe probe = redis.probe()) {
            for (int s = 0; s < SHARDS; s++) {
                for (int i = 0; i < 10; i++) {
                    probe.call("XADD", new ShardId("pos", s).key(), (1000 + i) + "-0", "n", Integer.toString(i));
                }
            }
        }
        fleet.listener("pos", "handler=logging-sink", "handler.config.log.every=1000", "streams=pos:" + SHARDS,
                "group=pos", "concurrency=1", "start.from=earliest");
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 1));
        common.put("redis.url", redis.uri());
        common.put("session.timeout.ms", "4000");
        common.put("heartbeat.interval.ms", "500");
        common.put("rest.auth.token", TOKEN);
        RestClient rest = new RestClient(ports.get(1), TOKEN);
        ClusterProbe probe = new ClusterProbe(redis);
        fleet.start("w0", ItFleet.withPorts(common, ports.get(0), ports.get(1))).await("joined cluster", JOIN);
        probe.awaitDrained("pos", "pos", SHARDS, SETTLE);

        // GET: every shard delivered to its last entry, nothing pending, no lag.
        JsonObject offsets = rest.get("/listeners/pos/offsets");
        assertThat(offsets.getString("group")).isEqualTo("pos");
        assertThat(offsets.getString("start_from")).isEqualTo("earliest");
        for (JsonObject shard : objects(offsets.getJsonArray("shards"))) {
            assertThat(shard.getString("last_delivered_id")).as("%s", shard).isEqualTo("1009-0");
            assertThat(shard.getLong("pending")).isZero();
            assertThat(shard.getLong("lag")).isZero();
        }

        // While it runs: a move is refused (409), a dry run answers before/after and changes nothing.
        JsonObject toEarliest = new JsonObject().put("all", new JsonObject().put("position", "earliest"));
        RestClient.Reply running = rest.call("PATCH", "/listeners/pos/offsets", toEarliest, true);
        assertThat(running.status()).as(running.body()).isEqualTo(409);
        assertThat(running.json().getString("message")).contains("STOPPED", "/listeners/pos/stop");
        assertThat(rest.call("DELETE", "/listeners/pos/offsets", null, true).status()).isEqualTo(409);
        JsonObject dry = rest.call("PATCH", "/listeners/pos/offsets?dry_run=true", toEarliest, true).json();
        assertThat(dry.getBoolean("dry_run")).isTrue();
        assertThat(objects(dry.getJsonArray("changes"))).extracting(c -> c.getString("before") + ">" + c.getString("after"))
                .containsExactly("1009-0>0-0", "1009-0>0-0");
        assertThat(lastDelivered(rest, 0)).isEqualTo("1009-0");

        // Stopped: three entries read by hand stay pending on shard 0 (the listener's members have left).
        assertThat(rest.call("PUT", "/listeners/pos/stop", null, true).status()).isEqualTo(202);
        awaitMembersGone(rest, "pos");
        try (RespProbe redisProbe = redis.probe()) {
            String key = new ShardId("pos", 0).key();
            for (int i = 0; i < 3; i++) {
                redisProbe.call("XADD", key, (2000 + i) + "-0", "n", "late");
            }
            redisProbe.call("XREADGROUP", "GROUP", "pos", "by-hand", "COUNT", "3", "STREAMS", key, ">");
        }
        JsonObject shard0 = objects(rest.get("/listeners/pos/offsets").getJsonArray("shards")).get(0);
        assertThat(shard0.getLong("pending")).isEqualTo(3);
        assertThat(shard0.getString("oldest_pending_id")).isEqualTo("2000-0");
        assertThat(shard0.getLong("oldest_pending_age_ms")).isPositive();

        // One shard to earliest: its pending entries are dropped with the move; the other shard stays.
        JsonObject moved = rest.call("PATCH", "/listeners/pos/offsets", new JsonObject().put("shards", new JsonArray()
                .add(new JsonObject().put("stream", "pos").put("shard", 0).put("position", "earliest"))), true).json();
        assertThat(moved.getBoolean("dry_run")).isFalse();
        JsonObject change = objects(moved.getJsonArray("changes")).get(0);
        assertThat(change.getString("before")).isEqualTo("2002-0");
        assertThat(change.getString("after")).isEqualTo("0-0");
        assertThat(change.getLong("pending_dropped")).isEqualTo(3);
        JsonObject after = objects(rest.get("/listeners/pos/offsets").getJsonArray("shards")).get(0);
        assertThat(after.getString("last_delivered_id")).isEqualTo("0-0");
        assertThat(after.getLong("pending")).isZero();
        assertThat(lastDelivered(rest, 1)).isEqualTo("1009-0");

        // A time: positioned after the last entry before it; a duration back from now; an entry id; latest.
        assertThat(moveAll(rest, "@1005")).containsExactly("1004-0", "1004-0");
        assertThat(moveAll(rest, "-15m")).containsExactly("2002-0", "1009-0");
        assertThat(moveAll(rest, "1003")).containsExactly("1003-0", "1003-0");
        assertThat(moveAll(rest, "latest")).containsExactly("2002-0", "1009-0");
        // DELETE: back to start.from (earliest).
        JsonObject reset = rest.call("DELETE", "/listeners/pos/offsets", null, true).json();
        assertThat(objects(reset.getJsonArray("changes"))).extracting(c -> c.getString("after"))
                .containsExactly("0-0", "0-0");

        // Refusals name the field; an unknown shard is 404.
        RestClient.Reply bad = rest.call("PATCH", "/listeners/pos/offsets", new JsonObject().put("shards",
                new JsonArray().add(new JsonObject().put("stream", "pos").put("shard", 1).put("position", "yesterday"))),
                true);
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().getString("message")).contains("shards[0].position", "yesterday", "earliest");
        assertThat(rest.call("PATCH", "/listeners/pos/offsets", new JsonObject().put("shards", new JsonArray()
                .add(new JsonObject().put("stream", "pos").put("shard", 9).put("position", "latest"))), true).status())
                .isEqualTo(404);
        assertThat(rest.call("PATCH", "/listeners/pos/offsets", new JsonObject(), true).status()).isEqualTo(400);
        assertThat(rest.call("PATCH", "/listeners/pos/offsets", toEarliest, false).status()).isEqualTo(401);

        // Every move is in the group's audit trail with the position before and after.
        List<JsonObject> audit = objects(rest.getArray("/groups/pos/audit?limit=100")).stream()
                .filter(e -> "OFFSET_RESET".equals(e.getString("type"))).toList();
        assertThat(audit).hasSize(11);
        assertThat(audit.get(0).getString("shard")).isEqualTo("pos:0");
        assertThat(audit.get(0).getString("before")).isEqualTo("2002-0");
        assertThat(audit.get(0).getString("after")).isEqualTo("0-0");

        // Resumed from earliest, the listener reads every entry again and drains the shards.
        assertThat(rest.call("PUT", "/listeners/pos/resume", null, true).status()).isEqualTo(202);
        probe.awaitDrained("pos", "pos", SHARDS, SETTLE);
    }

    private static List<String> moveAll(RestClient rest, String position) {
        RestClient.Reply reply = rest.call("PATCH", "/listeners/pos/offsets", new JsonObject().put("all",
                new JsonObject().put("position", position)), true);
        assertThat(reply.status()).as("PATCH to %s: %s", position, reply.body()).isEqualTo(200);
        return objects(reply.json().getJsonArray("changes")).stream().map(c -> c.getString("after")).toList();
    }

    private static String lastDelivered(RestClient rest, int shard) {
        return objects(rest.get("/listeners/pos/offsets").getJsonArray("shards")).get(shard)
                .getString("last_delivered_id");
    }

    private static void awaitMembersGone(RestClient rest, String listener) {
        long end = System.nanoTime() + SETTLE.toNanos();
        JsonObject last = null;
        while (System.nanoTime() < end) {
            last = rest.get("/listeners/" + listener + "/status");
            if ("STOPPED".equals(last.getString("state")) && last.getJsonArray("members").isEmpty()) {
                return;
            }
            WorkerProcess.pause(100);
        }
        throw new AssertionError("timed out after " + SETTLE + " waiting for " + listener + " to stop: " + last);
    }

    static List<JsonObject> objects(JsonArray array) {
        return array.stream().map(o -> (JsonObject) o).toList();
    }

    private static JsonArray groups(RestClient rest) {
        return rest.getArray("/groups");
    }

    private static JsonObject group(RestClient rest, String id) {
        return groups(rest).stream().map(o -> (JsonObject) o).filter(g -> id.equals(g.getString("group")))
                .findFirst().orElseThrow(() -> new AssertionError("no group " + id + " in " + groups(rest)));
    }

    private static JsonObject awaitGroup(RestClient rest, String id, Predicate<JsonObject> ok, String what) {
        long end = System.nanoTime() + SETTLE.toNanos();
        JsonArray last = null;
        while (System.nanoTime() < end) {
            last = groups(rest);
            for (Object o : last) {
                JsonObject g = (JsonObject) o;
                if (id.equals(g.getString("group")) && ok.test(g)) {
                    return g;
                }
            }
            WorkerProcess.pause(100);
        }
        throw new AssertionError("timed out after " + SETTLE + " waiting for " + what + "; last GET /groups " + last);
    }

    static boolean hasRedisGroup(RedisServer redis, String stream, int shard, String group) throws IOException {
        try (RespProbe probe = RedisNodes.of(redis).probeFor(new ShardId(stream, shard).key())) {
            for (Object g : (List<?>) probe.call("XINFO", "GROUPS", new ShardId(stream, shard).key())) {
                List<?> flat = (List<?>) g;
                for (int i = 0; i + 1 < flat.size(); i += 2) {
                    if ("name".equals(String.valueOf(flat.get(i))) && group.equals(String.valueOf(flat.get(i + 1)))) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    static boolean exists(RedisServer redis, String key) throws IOException {
        try (RespProbe probe = RedisNodes.of(redis).probeFor(key)) {
            return ((Number) probe.call("EXISTS", key)).longValue() == 1;
        }
    }
}
