package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every group-level setting of a listener changed with {@code PATCH /listeners/{name}/config} reaches the
 * coordinator (the group's settings in {@code GET /groups/{group}} show the new value, and the audit trail has a
 * {@code GROUP_CONFIGURED} event naming the key), or is refused with a message that says why: a changed shard count
 * (409 naming both counts) over REST, and at start for a listener file whose count differs from the stream's
 * topology. Two worker processes, one Redis; one test per setting, all on the same listener.
 *
 * <p>Tagged {@code integration}. Run it alone with {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=GroupSettingsIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class GroupSettingsIntegrationTest {

    private static final String TOKEN = "it-settings-token";
    private static final String NAME = "settings";
    /** Worker start plus a join on a loaded machine. */
    private static final Duration JOIN = Duration.ofSeconds(150);
    /** A listener restart on both workers (members leave and join again) and one configuration round trip. */
    private static final Duration APPLIED = Duration.ofSeconds(90);

    private static ItFleet fleet;
    private static final List<RestClient> REST = new ArrayList<>();

    @BeforeAll
    static void startWorkers(RedisServer redis) throws Exception {
        try (RespProbe probe = redis.probe()) {
            // A stream whose topology says 3 shards; the file listener below says 5.
            probe.call("HSET", "{fixed:topology}", "format", "1", "stream", "fixed", "shards", "3", "routing_epoch", "1",
                    "state", "STABLE", "history", "[]");
        }
        fleet = ItFleet.create("settings");
        fleet.listener("mismatch", "handler=logging-sink", "streams=fixed:5");
        List<Integer> ports = FreePorts.take(4);
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 2));
        common.put("redis.url", redis.uri());
        common.put("session.timeout.ms", "6000");
        common.put("heartbeat.interval.ms", "500");
        common.put("rest.auth.token", TOKEN);
        for (int i = 0; i < 2; i++) {
            WorkerProcess w = fleet.start("w" + i, ItFleet.withPorts(common, ports.get(i), ports.get(2 + i)));
            w.await("joined cluster", JOIN);
            REST.add(new RestClient(ports.get(2 + i), TOKEN));
        }
        JsonObject create = new JsonObject().put("name", NAME).put("config", new JsonObject()
                .put("handler", "logging-sink").put("streams", NAME + ":4").put("assignor", "sticky"));
        RestClient.Reply created = REST.get(0).call("POST", "/listeners", create, true);
        assertEquals(201, created.status(), created.body());
        awaitGroup("both workers' members in the group", g -> g.getJsonArray("members").size() == 2);
    }

    @AfterAll
    static void stopWorkers() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void assignorChangeReachesTheCoordinator() {
        patch("assignor", "round-robin");
        awaitGroup("assignor round-robin", g -> "round-robin".equals(g.getString("assignor")));
        awaitConfiguredEvent("assignor");
    }

    @Test
    void sessionTimeoutChangeReachesTheCoordinator() {
        patch("session.timeout.ms", "9000");
        awaitGroup("session timeout 9000", g -> settings(g).getInteger("session_timeout_ms") == 9000);
        awaitConfiguredEvent("session.timeout.ms");
    }

    @Test
    void heartbeatIntervalChangeReachesTheCoordinator() {
        patch("heartbeat.interval.ms", "700");
        awaitGroup("heartbeat interval 700", g -> settings(g).getInteger("heartbeat_interval_ms") == 700);
        awaitConfiguredEvent("heartbeat.interval.ms");
    }

    @Test
    void rebalanceTimeoutChangeReachesTheCoordinator() {
        patch("rebalance.timeout.ms", "25000");
        awaitGroup("rebalance timeout 25000", g -> settings(g).getInteger("rebalance_timeout_ms") == 25_000);
        awaitConfiguredEvent("rebalance.timeout.ms");
    }

    @Test
    void rebalanceProtocolChangeReachesTheCoordinator() {
        patch("rebalance.protocol", "eager");
        awaitGroup("eager protocol", g -> "eager".equals(settings(g).getString("rebalance_protocol")));
        awaitConfiguredEvent("rebalance.protocol");
    }

    @Test
    void staticMembershipChangeReachesTheCoordinator() {
        patch("static.membership", "true");
        awaitGroup("two static members", g -> g.getJsonArray("members").size() == 2 && members(g).stream()
                .allMatch(m -> m.getString("id").equals(m.getString("instance_id"))));
    }

    @Test
    void memberWeightChangeReachesTheCoordinator() {
        patch("member.weight", "3");
        awaitGroup("two members of weight 3", g -> g.getJsonArray("members").size() == 2 && members(g).stream()
                .allMatch(m -> Integer.valueOf(3).equals(m.getInteger("weight"))));
    }

    @Test
    void aChangedShardCountIsRefusedNamingBothCounts() {
        RestClient.Reply reply = REST.get(1).call("PATCH", "/listeners/" + NAME + "/config",
                new JsonObject().put("streams", NAME + ":8"), true);
        assertEquals(409, reply.status(), reply.body());
        assertThat(reply.json().getString("message")).contains("streams=" + NAME + ":8", "has 4 shards",
                "docs/operations.md");
        assertThat(REST.get(0).get("/listeners/" + NAME + "/config").getString("streams")).isEqualTo(NAME + ":4");
        assertEquals(4, settings(REST.get(0).get("/groups/" + NAME)).getJsonObject("streams").getInteger(NAME));
    }

    @Test
    void aListenerFileWithAnotherShardCountIsRefusedAtStart() {
        String status = REST.get(0).call("GET", "/listeners/mismatch/status", (JsonObject) null, true).body();
        assertThat(status).contains("FAILED", "streams=fixed:5", "has 3 shards");
    }

    private static void patch(String key, String value) {
        RestClient.Reply reply = REST.get(1).call("PATCH", "/listeners/" + NAME + "/config",
                new JsonObject().put(key, value), true);
        assertEquals(200, reply.status(), key + "=" + value + ": " + reply.body());
    }

    private static JsonObject settings(JsonObject group) {
        return group.getJsonObject("settings");
    }

    private static List<JsonObject> members(JsonObject group) {
        List<JsonObject> out = new ArrayList<>();
        group.getJsonArray("members").forEach(m -> out.add((JsonObject) m));
        return out;
    }

    private static void awaitGroup(String what, Predicate<JsonObject> done) {
        long end = System.nanoTime() + APPLIED.toNanos();
        RestClient.Reply last = null;
        while (System.nanoTime() < end) {
            last = REST.get(0).call("GET", "/groups/" + NAME, (JsonObject) null, true);
            if (last.status() == 200 && done.test(last.json())) {
                return;
            }
            WorkerProcess.pause(100);
        }
        throw new AssertionError("timed out after " + APPLIED + " (a listener restart on both workers) waiting for "
                + what + "; last answer " + last);
    }

    private static void awaitConfiguredEvent(String key) {
        long end = System.nanoTime() + APPLIED.toNanos();
        while (System.nanoTime() < end) {
            JsonArray audit = REST.get(0).getArray("/groups/" + NAME + "/audit?limit=1000");
            for (Object o : audit) {
                JsonObject e = (JsonObject) o;
                if ("GROUP_CONFIGURED".equals(e.getString("type")) && e.getString("reason", "").contains(key + " ")) {
                    return;
                }
            }
            WorkerProcess.pause(100);
        }
        throw new AssertionError("no GROUP_CONFIGURED audit event naming " + key + " within " + APPLIED);
    }
}
