package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The REST control plane across two worker JVMs from the built distribution (docs/rest.md): a
 * pause written on one worker stops consumption on every worker within one heartbeat interval (plus a
 * margin), measured by the stream entry ids the group was last delivered against the time the pause was
 * sent; a per-shard pause stops only that shard; {@code /groups/{group}} answers on a non-leader;
 * status and {@code /workers} list the members of both workers; a listener created over REST runs on both
 * workers and a delete stops it on both; restart answers 202/204 and the members come back; stop releases
 * the assignment and resume brings it back; writes without the token get 401; {@code /metrics} parses as
 * Prometheus text with the documented families; a pause survives a restart of every worker, and after the
 * resume every record produced was handled.
 *
 * <p>Tagged {@code integration}, part of the default build (about a minute: four worker JVM starts). Run it
 * alone with {@code mvn -B -ntp verify -pl integration-tests -am -Dtest=RestClusterIntegrationTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class RestClusterIntegrationTest {

    private static final int SHARDS = 4;
    private static final int HEARTBEAT_MS = 500;
    /** Slack on top of one heartbeat interval for a pause to take effect (event bus, Redis, a loaded machine). */
    private static final int MARGIN_MS = 1_000;
    private static final String TOKEN = "it-rest-token";
    private static final Duration JOIN = Duration.ofSeconds(150);
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final Pattern SAMPLE = Pattern.compile(
            "[a-zA-Z_:][a-zA-Z0-9_:]*(\\{([a-zA-Z_][a-zA-Z0-9_]*=\"([^\"\\\\]|\\\\.)*\",?)*\\})? -?[0-9.eE+-]+|"
                    + "[a-zA-Z_:][a-zA-Z0-9_:]*(\\{.*\\})? (NaN|\\+Inf|-Inf)");

    private ItFleet fleet;
    private StreamProducer producer;

    @AfterEach
    void stopAll() {
        if (producer != null) {
            producer.close();
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void controlPlaneActsClusterWide(RedisServer redis) throws Exception {
        fleet = ItFleet.create("rest");
        List<Integer> ports = FreePorts.take(4);
        fleet.listener("orders", "handler=logging-sink", "handler.config.log.every=1000", "streams=orders:" + SHARDS,
                "group=orders", "concurrency=1", "assignor=cooperative-sticky", "start.from=earliest");
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 2));
        common.put("cluster.failure.timeout.ms", "3000");
        common.put("redis.url", redis.uri());
        common.put("session.timeout.ms", "4000");
        common.put("heartbeat.interval.ms", Integer.toString(HEARTBEAT_MS));
        common.put("rest.auth.token", TOKEN);
        Map<String, String> w0Settings = ItFleet.withPorts(common, ports.get(0), ports.get(2));
        Map<String, String> w1Settings = ItFleet.withPorts(common, ports.get(1), ports.get(3));
        RestClient a = new RestClient(ports.get(2), TOKEN);
        RestClient b = new RestClient(ports.get(3), TOKEN);
        ClusterProbe probe = new ClusterProbe(redis);

        // Two workers, w0 first (the oldest, so the leader); the file listener's shards split 2/2.
        WorkerProcess w0 = fleet.start("w0", w0Settings);
        w0.await("joined cluster", JOIN);
        WorkerProcess w1 = fleet.start("w1", w1Settings);
        assertThat(w1.await("joined cluster", JOIN)).contains("leader w0");
        probe.awaitOwners("orders", SHARDS, o -> o.values().stream().map(ClusterProbe::workerOf)
                .collect(Collectors.toSet()).equals(Set.of("w0", "w1")), SETTLE, "orders split over w0 and w1");
        producer = StreamProducer.start(redis, "orders", SHARDS, 5);

        // Writes without the token: 401, nothing changed.
        assertThat(b.call("PUT", "/listeners/orders/pause", null, false).status()).isEqualTo(401);
        assertThat(b.call("POST", "/listeners", new JsonObject().put("name", "x"), false).status()).isEqualTo(401);
        assertThat(a.call("DELETE", "/listeners/orders", null, false).status()).isEqualTo(401);
        assertThat(a.call("POST", "/listeners/orders/restart", null, false).status()).isEqualTo(401);
        assertThat(a.get("/listeners/orders").getString("target_state")).isEqualTo("STARTED");

        // The coordinator's read model and audit on the non-leader (forwarded to the leader).
        JsonObject group = awaitJson(b, "/groups/orders", g -> memberWorkers(g.getJsonArray("members"), "worker_id")
                .equals(Set.of("w0", "w1")), "group orders with members on w0 and w1 (asked of w1)");
        assertThat(group.getString("assignor")).isEqualTo("cooperative-sticky");
        assertThat(b.getArray("/groups/orders/audit?limit=50")).isNotEmpty();
        assertThat(b.call("GET", "/groups/no-such-group", null, true).status()).isEqualTo(404);

        // Status and /workers cover both workers, whichever worker answers.
        JsonObject status = awaitJson(b, "/listeners/orders/status", s -> memberWorkers(s.getJsonArray("members"),
                "worker_id").equals(Set.of("w0", "w1")), "status listing members of w0 and w1");
        assertThat(status.getJsonArray("shards")).hasSize(SHARDS);
        for (Object o : status.getJsonArray("shards")) {
            assertThat(((JsonObject) o).getString("owner")).as("shard owner in %s", status).isNotNull();
        }
        JsonObject workersInfo = a.get("/workers");
        assertThat(workersInfo.getString("leader_id")).isEqualTo("w0");
        for (Object o : workersInfo.getJsonArray("workers")) {
            JsonObject w = (JsonObject) o;
            assertThat(w.getJsonArray("listeners").getList()).as("listeners of %s", w).contains("orders");
            assertThat(w.getJsonArray("members").getList()).as("members of %s", w)
                    .contains(w.getString("id") + "-orders-m0");
        }

        // Pause on w1 stops reading on every worker within one heartbeat interval (+ margin); resume on w0.
        long pausedAt = System.currentTimeMillis();
        assertThat(b.call("PUT", "/listeners/orders/pause", null, true).status()).isEqualTo(202);
        long deadline = pausedAt + HEARTBEAT_MS + MARGIN_MS;
        producer.awaitProducedAfter(deadline + HEARTBEAT_MS, SETTLE);
        Map<Integer, Long> delivered = probe.lastDeliveredMs("orders", "orders", SHARDS);
        long stopMs = delivered.values().stream().mapToLong(ms -> ms - pausedAt).max().orElseThrow();
        System.out.println("FIGURE rest_pause_to_last_read_ms=" + stopMs + " (heartbeat " + HEARTBEAT_MS + ")");
        assertThat(delivered.values()).as("last delivered entry time per shard vs the pause at %d", pausedAt)
                .allMatch(ms -> ms <= deadline);
        assertThat(a.get("/listeners/orders/status").getString("state")).isEqualTo("PAUSED");
        long resumedAt = System.currentTimeMillis();
        assertThat(a.call("PUT", "/listeners/orders/resume", null, true).status()).isEqualTo(202);
        probe.awaitDeliveredAfter("orders", "orders", SHARDS, Set.of(0, 1, 2, 3), resumedAt, SETTLE);

        // Per-shard pause: only orders:1 stops.
        long shardPausedAt = System.currentTimeMillis();
        assertThat(a.call("PUT", "/listeners/orders/shards/orders/1/pause", null, true).status()).isEqualTo(202);
        long shardDeadline = shardPausedAt + HEARTBEAT_MS + MARGIN_MS;
        producer.awaitProducedAfter(shardDeadline + HEARTBEAT_MS, SETTLE);
        probe.awaitDeliveredAfter("orders", "orders", SHARDS, Set.of(0, 2, 3), shardDeadline, SETTLE);
        assertThat(probe.lastDeliveredMs("orders", "orders", SHARDS).get(1)).as("orders:1 read after its pause")
                .isLessThanOrEqualTo(shardDeadline);
        assertThat(b.call("PUT", "/listeners/orders/shards/orders/1/resume", null, true).status()).isEqualTo(202);
        probe.awaitDeliveredAfter("orders", "orders", SHARDS, Set.of(1), System.currentTimeMillis(), SETTLE);

        // A listener created over REST on w1 runs on both workers; deleted on w0, it stops on both.
        JsonObject created = b.call("POST", "/listeners", new JsonObject().put("name", "audit").put("config",
                new JsonObject().put("handler", "logging-sink").put("streams", "audit:2").put("group", "audit")
                        .put("start.from", "earliest").put("concurrency", "1")), true).json();
        assertThat(created.getString("source")).isEqualTo("rest");
        awaitJson(a, "/listeners/audit/status", s -> memberWorkers(s.getJsonArray("members"), "worker_id")
                .equals(Set.of("w0", "w1")) && ownedShards(s) == 2, "REST listener audit running on w0 and w1");
        StreamProducer.produce(redis, "audit", 2, 20);
        probe.awaitDrained("audit", "audit", 2, SETTLE);
        // PUT .../config reconfigures it on both workers: two members each.
        assertThat(a.call("PUT", "/listeners/audit/config", new JsonObject().put("handler", "logging-sink")
                .put("streams", "audit:2").put("group", "audit").put("start.from", "earliest").put("concurrency", "2"),
                true).status()).isEqualTo(200);
        awaitJson(b, "/listeners/audit/status", s -> s.getJsonArray("members").stream()
                .map(m -> ((JsonObject) m).getString("id")).collect(Collectors.toSet())
                .equals(Set.of("w0-audit-m0", "w0-audit-m1", "w1-audit-m0", "w1-audit-m1")) && ownedShards(s) == 2,
                "audit reconfigured to two members on each worker");
        StreamProducer.produce(redis, "audit", 2, 20);
        probe.awaitDrained("audit", "audit", 2, SETTLE);
        assertThat(a.call("DELETE", "/listeners/audit", null, true).status()).isEqualTo(204);
        awaitJson(b, "/workers", w -> w.getJsonArray("workers").stream()
                .noneMatch(o -> ((JsonObject) o).getJsonArray("listeners").contains("audit")), "audit gone everywhere");
        assertThat(b.call("GET", "/listeners/audit/status", null, true).status()).isEqualTo(404);

        // Restart (KIP-745): with includeMembers 202 and the members shown RESTARTING; both flags off 204.
        RestClient.Reply restart = b.call("POST", "/listeners/orders/restart?includeMembers=true", null, true);
        assertThat(restart.status()).isEqualTo(202);
        assertThat(memberWorkers(restart.json().getJsonArray("members"), "worker_id")).isEqualTo(Set.of("w0", "w1"));
        assertThat(restart.json().getString("state")).isEqualTo("RESTARTING");
        awaitRunning(a);
        assertThat(a.call("POST", "/listeners/orders/restart", null, true).status()).isEqualTo(204);
        awaitRunning(a);

        // Stop releases the assignment (KIP-875): no member left in the group; resume brings them back.
        assertThat(a.call("PUT", "/listeners/orders/stop", null, true).status()).isEqualTo(202);
        awaitJson(b, "/groups/orders", g -> g.getJsonArray("members").isEmpty(), "group orders empty after stop");
        // A member that has left the group is dropped from its worker's report a moment later: wait for that.
        awaitJson(b, "/listeners/orders/status", s -> "STOPPED".equals(s.getString("state"))
                && s.getJsonArray("members").isEmpty(), "status STOPPED with no member after stop");
        assertThat(b.call("PUT", "/listeners/orders/resume", null, true).status()).isEqualTo(202);
        awaitRunning(a);

        // /metrics: Prometheus text with the documented families.
        awaitMetrics(a, List.of("shardline_listener_records_handled_total", "shardline_listener_handler_batch_time_seconds",
                "shardline_listener_shards_owned", "shardline_coordinator_groups",
                "shardline_coordinator_group_heartbeats_total", "shardline_coordinator_group_rebalances_total",
                "shardline_coordinator_group_shards_granted_total", "shardline_shard_lag", "shardline_shard_pending",
                "shardline_shard_owned", "shardline_member_heartbeat_latency_seconds", "shardline_member_epoch",
                "shardline_member_rebalances_total"));

        // A pause survives a restart of every worker: after both rejoin and own every shard, nothing is read.
        assertThat(b.call("PUT", "/listeners/orders/pause", null, true).status()).isEqualTo(202);
        producer.awaitProducedAfter(System.currentTimeMillis() + HEARTBEAT_MS + MARGIN_MS, SETTLE);
        Map<Integer, Long> beforeRestart = probe.lastDeliveredMs("orders", "orders", SHARDS);
        Map<Integer, ClusterProbe.Owner> ownersBefore = probe.owners("orders", SHARDS);
        w1.terminate();
        w0.terminate();
        assertThat(w1.waitExit(Duration.ofSeconds(30))).as("w1 exit\n%s", w1.tail()).isZero();
        assertThat(w0.waitExit(Duration.ofSeconds(30))).as("w0 exit\n%s", w0.tail()).isZero();
        w0 = fleet.start("w0-again", "w0", w0Settings);
        w0.await("joined cluster", JOIN);
        w1 = fleet.start("w1-again", "w1", w1Settings);
        w1.await("joined cluster", JOIN);
        probe.awaitOwners("orders", SHARDS, o -> o.entrySet().stream().allMatch(e ->
                e.getValue().epoch() > ownersBefore.get(e.getKey()).epoch()), SETTLE, "orders owned again after restart");
        long ownedAgainAt = System.currentTimeMillis();
        producer.awaitProducedAfter(ownedAgainAt + HEARTBEAT_MS + MARGIN_MS, SETTLE);
        assertThat(probe.lastDeliveredMs("orders", "orders", SHARDS)).as("read while paused across the restart")
                .isEqualTo(beforeRestart);
        assertThat(awaitJson(b, "/listeners/orders/status", s -> true, "status").getString("state"))
                .isEqualTo("PAUSED");

        // Resume: every record produced is handled, nothing lost.
        assertThat(a.call("PUT", "/listeners/orders/resume", null, true).status()).isEqualTo(202);
        long produced = producer.stop();
        probe.awaitDrained("orders", "orders", SHARDS, SETTLE);
        System.out.println("FIGURE rest_it_records_produced=" + produced);
    }

    private void awaitRunning(RestClient rest) {
        awaitJson(rest, "/listeners/orders/status", s -> "RUNNING".equals(s.getString("state"))
                && memberWorkers(s.getJsonArray("members"), "worker_id").equals(Set.of("w0", "w1"))
                && s.getJsonArray("members").stream().allMatch(m -> "RUNNING".equals(((JsonObject) m).getString("state")))
                && ownedShards(s) == SHARDS, "orders RUNNING on w0 and w1 with every shard owned");
    }

    private static long ownedShards(JsonObject status) {
        return status.getJsonArray("shards").stream().filter(o -> ((JsonObject) o).getString("owner") != null).count();
    }

    private static Set<String> memberWorkers(JsonArray members, String field) {
        Set<String> out = new TreeSet<>();
        members.forEach(o -> out.add(((JsonObject) o).getString(field)));
        return out;
    }

    private static JsonObject awaitJson(RestClient rest, String path, java.util.function.Predicate<JsonObject> ok,
                                        String what) {
        long end = System.nanoTime() + SETTLE.toNanos();
        RestClient.Reply last = null;
        while (System.nanoTime() < end) {
            last = rest.call("GET", path, null, true);
            if (last.status() == 200 && ok.test(last.json())) {
                return last.json();
            }
            WorkerProcess.pause(100);
        }
        throw new AssertionError("timed out after " + SETTLE + " waiting for " + what + "; last answer "
                + (last == null ? "none" : last.status() + " " + last.body()));
    }

    private static void awaitMetrics(RestClient rest, List<String> families) {
        long end = System.nanoTime() + SETTLE.toNanos();
        Set<String> missing = Set.copyOf(families);
        String text = "";
        while (System.nanoTime() < end) {
            RestClient.Reply reply = rest.call("GET", "/metrics", null, true);
            assertThat(reply.status()).isEqualTo(200);
            text = reply.body();
            Set<String> typed = new TreeSet<>();
            for (String line : text.split("\n")) {
                if (line.startsWith("# TYPE ")) {
                    typed.add(line.split(" ")[2]);
                } else if (!line.isEmpty() && !line.startsWith("#")) {
                    assertThat(SAMPLE.matcher(line).matches()).as("Prometheus sample line: %s", line).isTrue();
                }
            }
            missing = families.stream().filter(f -> !typed.contains(f)).collect(Collectors.toSet());
            if (missing.isEmpty()) {
                return;
            }
            WorkerProcess.pause(500);
        }
        throw new AssertionError("/metrics lacks families " + missing + ":\n" + text);
    }
}
