package io.shardline.runtime.rest;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.AuditEvent;
import io.shardline.coordinator.AuditType;
import io.shardline.runtime.control.TargetStates;
import io.shardline.runtime.metrics.DropwizardExporterTest;
import io.shardline.runtime.control.ListenerStatusSampler;
import io.shardline.runtime.metrics.ShardMetrics;
import io.shardline.runtime.rest.RestHarness.Reply;
import io.shardline.runtime.rest.entity.GroupMemberView;
import io.shardline.runtime.rest.entity.GroupView;
import io.shardline.runtime.metrics.ListenerHistory;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.TargetState;
import io.shardline.runtime.store.MetadataKeys;
import io.shardline.runtime.store.RedisAuditLog;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every route's happy path and error shapes, on loopback without a token, over a real Redis. */
@RedisTest
class RestApiTest {

    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    private static final String ORDERS = """
            {"name": "orders", "config": {"handler": "configured", "streams": "orders:2",
             "handler.config.prefix": "p-", "start.from": "earliest"}}""";

    private RestHarness rest;

    @BeforeEach
    void start(RedisServer redis) {
        rest = new RestHarness(redis.uri(), "api" + CLUSTERS.incrementAndGet(), RestSettings.loopback(0));
        send(Request.cmd(Command.FLUSHALL));
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void rootNamesVersionClusterWorkerAndLeader() {
        Reply reply = rest.call(HttpMethod.GET, "/");
        assertEquals(200, reply.status(), reply::toString);
        JsonObject json = reply.json();
        assertThat(json.getString("version")).isNotBlank();
        assertEquals(rest.cluster.clusterName(), json.getString("cluster_name"));
        assertEquals("worker-a", json.getString("worker_id"));
        assertEquals("worker-a", json.getString("leader_id"));
    }

    @Test
    void workersAreSortedWithTheLeader() {
        JsonObject json = rest.call(HttpMethod.GET, "/workers").json();
        assertEquals("worker-a", json.getString("leader_id"));
        JsonArray workers = json.getJsonArray("workers");
        assertEquals("worker-a", workers.getJsonObject(0).getString("id"));
        assertEquals(true, workers.getJsonObject(0).getBoolean("leader"));
        assertEquals(List.of("worker-b-orders-m0"), workers.getJsonObject(1).getJsonArray("members").getList());
    }

    @Test
    void pluginsListHandlersWithTheirConfigDefinition() {
        Reply reply = rest.call(HttpMethod.GET, "/plugins");
        assertEquals(200, reply.status(), reply::toString);
        JsonObject configured = find(reply.array(), "class", "io.shardline.runtime.listener.ConfiguredHandler");
        assertEquals("configured", configured.getString("alias"));
        assertEquals("handler", configured.getString("type"));
        assertEquals("classpath", configured.getString("location"));
        JsonObject limit = find(configured.getJsonArray("config"), "name", "limit");
        assertEquals("INT", limit.getString("type"));
        assertEquals("5", limit.getString("default_value"));
    }

    @Test
    void validateListsEveryErrorWithItsKey() {
        Reply ok = rest.call(HttpMethod.PUT, "/plugins/configured/config/validate",
                "{\"streams\": \"orders:4\", \"handler.config.prefix\": \"x\"}");
        assertEquals(200, ok.status(), ok::toString);
        assertEquals(0, ok.json().getInteger("error_count"), ok::toString);
        assertEquals("io.shardline.runtime.listener.ConfiguredHandler", ok.json().getString("plugin"));

        Reply bad = rest.call(HttpMethod.PUT, "/plugins/io.shardline.runtime.listener.ConfiguredHandler/config/validate",
                "{\"concurrency\": \"0\", \"handler.config.limit\": 11, \"handler.config.api.token\": \"tok-123\"}");
        assertEquals(200, bad.status(), bad::toString);
        JsonArray errors = bad.json().getJsonArray("errors");
        List<String> keys = errors.stream().map(e -> ((JsonObject) e).getString("key")).toList();
        assertThat(keys).contains("concurrency", "streams", "handler.config.limit", "handler.config.prefix",
                "handler.config.api.token");
        assertEquals(errors.size(), bad.json().getInteger("error_count"));
        assertThat(bad.body()).doesNotContain("tok-123");

        Reply placeholder = rest.call(HttpMethod.PUT, "/plugins/configured/config/validate",
                "{\"streams\": \"orders:4\", \"handler.config.prefix\": \"${file:/etc/passwd:root}\"}");
        assertEquals(1, placeholder.json().getInteger("error_count"), placeholder::toString);
        assertThat(placeholder.body()).contains("rest.config.allowed.dirs").doesNotContain("root:x:0");
    }

    @Test
    void validateRefusesClassesThatAreNotDiscoveredHandlers() {
        for (String cls : List.of("java.lang.Runtime", "javax.naming.InitialContext", "nope")) {
            Reply reply = rest.call(HttpMethod.PUT, "/plugins/" + cls + "/config/validate", "{}");
            assertEquals(404, reply.status(), reply::toString);
            assertEquals(404, reply.json().getInteger("error_code"));
            assertThat(reply.json().getString("message")).contains("no handler plugin '" + cls + "'");
        }
    }

    @Test
    void listenerCrud() {
        Reply created = rest.call(HttpMethod.POST, "/listeners", ORDERS);
        assertEquals(201, created.status(), created::toString);
        assertEquals("rest", created.json().getString("source"));
        assertEquals("STARTED", created.json().getString("target_state"));
        assertEquals("orders:2", created.json().getJsonObject("config").getString("streams"));

        assertEquals(409, rest.call(HttpMethod.POST, "/listeners", ORDERS).json().getInteger("error_code"));
        assertEquals(List.of("orders"), rest.call(HttpMethod.GET, "/listeners").array().getList());
        assertEquals("p-", rest.call(HttpMethod.GET, "/listeners/orders").json().getJsonObject("config")
                .getString("handler.config.prefix"));

        String config = "{\"handler\": \"configured\", \"streams\": \"orders:3\", \"handler.config.prefix\": \"q\"}";
        Reply replaced = rest.call(HttpMethod.PUT, "/listeners/orders/config", config);
        assertEquals(200, replaced.status(), replaced::toString);
        assertEquals("orders:3", replaced.json().getJsonObject("config").getString("streams"));
        assertEquals(201, rest.call(HttpMethod.PUT, "/listeners/payments/config", config).status());

        assertEquals(204, rest.call(HttpMethod.DELETE, "/listeners/orders").status());
        Reply gone = rest.call(HttpMethod.DELETE, "/listeners/orders");
        assertEquals(404, gone.status());
        assertEquals("unknown listener 'orders'", gone.json().getString("message"));
        assertEquals(404, rest.call(HttpMethod.GET, "/listeners/orders").status());
        assertEquals(List.of("payments"), rest.call(HttpMethod.GET, "/listeners").array().getList());
    }

    @Test
    void createErrorsNameTheField() {
        assertError(rest.call(HttpMethod.POST, "/listeners", "{\"config\": {}}"), 400, "name: required");
        assertError(rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"a b\", \"config\": {\"handler\": \"configured\"}}"),
                400, "name: 'a b' is not a listener name");
        assertError(rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"x\"}"), 400, "config: required");
        assertError(rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"x\", \"config\": {\"a\": [1]}}"), 400,
                "config.a: must be a string");
        assertError(rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"x\", \"config\": {\"streams\": \"s:1\"}}"),
                400, "config.handler: required");
        assertError(rest.call(HttpMethod.POST, "/listeners",
                "{\"name\": \"x\", \"config\": {\"handler\": \"configured\", \"streams\": \"s:1\"}}"),
                400, "config.handler.config.prefix");
        assertError(rest.call(HttpMethod.POST, "/listeners",
                "{\"name\": \"x\", \"initial_state\": \"SLEEPING\", \"config\": {\"handler\": \"configured\"}}"),
                400, "initial_state: must be RUNNING, PAUSED or STOPPED");
        // Issue 16.3: an assignor is a built-in or a discovered plugin; no other class name is accepted (or loaded).
        assertError(rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"x\", \"config\": {\"handler\": \"configured\", "
                + "\"streams\": \"s:1\", \"handler.config.prefix\": \"p\", \"assignor\": \"javax.swing.JFrame\"}}"),
                400, "config.assignor = 'javax.swing.JFrame': unknown assignor 'javax.swing.JFrame'");
        assertError(rest.call(HttpMethod.POST, "/listeners", "{\"name\": "), 400, "request body");
        assertError(rest.call(HttpMethod.POST, "/listeners", ""), 400, "request body: a JSON object is required");
    }

    @Test
    void fileListenersAreReadOnlyOverRest() {
        rest.cluster.fileListeners.put("audit", Map.of("handler", "configured", "streams", "audit:1",
                "handler.config.prefix", "a"));
        assertEquals("file", rest.call(HttpMethod.GET, "/listeners/audit").json().getString("source"));
        assertError(rest.call(HttpMethod.DELETE, "/listeners/audit"), 409, "defined in a file");
        assertError(rest.call(HttpMethod.PUT, "/listeners/audit/config", "{\"handler\": \"configured\"}"), 409,
                "defined in a file");
        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/audit/pause").status());
    }

    @Test
    void statusShowsOwnersLagPendingAndMembers() {
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", ORDERS).status());
        ShardId s0 = new ShardId("orders", 0);
        send(Request.cmd(Command.XADD).arg(s0.key()).arg("*").arg("k").arg("v"));
        send(Request.cmd(Command.XADD).arg(s0.key()).arg("*").arg("k").arg("v"));
        send(Request.cmd(Command.XADD).arg(s0.key()).arg("*").arg("k").arg("v"));
        send(Request.cmd(Command.XGROUP).arg("CREATE").arg(s0.key()).arg("orders").arg("0"));
        send(Request.cmd(Command.XREADGROUP).arg("GROUP").arg("orders").arg("m0").arg("COUNT").arg(1)
                .arg("STREAMS").arg(s0.key()).arg(">"));
        send(Request.cmd(Command.HSET).arg(s0.ownerKey("orders")).arg("owner").arg("worker-a-orders-m0").arg("epoch").arg(3));
        // another group reading the same stream has its own owner key; the status of "orders" must not show it
        send(Request.cmd(Command.HSET).arg(s0.ownerKey("audit")).arg("owner").arg("worker-b-audit-m0").arg("epoch").arg(9));
        send(Request.cmd(Command.HSET).arg(new ShardId("orders", 1).ownerKey("audit")).arg("owner").arg("worker-b-audit-m0")
                .arg("epoch").arg(4));
        rest.cluster.members.put("orders", List.of(new MemberStatus("worker-a-orders-m0", "worker-a",
                ListenerState.RUNNING, 5, List.of("orders:0"), null)));

        Reply reply = rest.call(HttpMethod.GET, "/listeners/orders/status");
        assertEquals(200, reply.status(), reply::toString);
        JsonObject status = reply.json();
        assertEquals("RUNNING", status.getString("state"));
        assertEquals("STARTED", status.getString("target_state"));
        assertEquals("orders", status.getString("group"));
        assertEquals(5, status.getJsonArray("members").getJsonObject(0).getInteger("epoch"));
        JsonObject shard0 = status.getJsonArray("shards").getJsonObject(0);
        assertEquals("worker-a-orders-m0", shard0.getString("owner"));
        assertEquals(3, shard0.getInteger("owner_epoch"));
        assertEquals(2, shard0.getInteger("lag"));
        assertEquals(1, shard0.getInteger("pending"));
        assertThat(shard0.getString("last_processed_id")).matches("\\d+-\\d+");
        assertThat(shard0.getLong("oldest_pending_ms")).as("age of the pending entry %s", shard0).isNotNull()
                .isGreaterThanOrEqualTo(0);
        JsonObject shard1 = status.getJsonArray("shards").getJsonObject(1);
        assertEquals("UNASSIGNED", shard1.getString("state"));
        assertEquals(-1, shard1.getInteger("owner_epoch"));
        assertThat(shard1.getValue("lag")).as("no stream, no group: no lag %s", shard1).isNull();
        assertEquals(0, shard1.getInteger("pending"));
        assertThat(shard1.getValue("oldest_pending_ms")).as("nothing pending %s", shard1).isNull();

        JsonObject expanded = rest.call(HttpMethod.GET, "/listeners?expand=status").json();
        assertEquals("RUNNING", expanded.getJsonObject("orders").getJsonObject("status").getString("state"));
        assertError(rest.call(HttpMethod.GET, "/listeners?expand=tasks"), 400, "query parameter expand");
        assertError(rest.call(HttpMethod.GET, "/listeners/nope/status"), 404, "unknown listener 'nope'");
    }

    @Test
    void failedMemberMakesTheListenerFailedWithItsTrace() {
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", ORDERS).status());
        rest.cluster.members.put("orders", List.of(
                new MemberStatus("worker-a-orders-m0", "worker-a", ListenerState.RUNNING, 2, List.of(), null),
                new MemberStatus("worker-b-orders-m0", "worker-b", ListenerState.FAILED, 2, List.of(),
                        "IllegalStateException: handler start failed")));
        JsonObject status = rest.call(HttpMethod.GET, "/listeners/orders/status").json();
        assertEquals("FAILED", status.getString("state"));
        assertEquals("worker-b-orders-m0: IllegalStateException: handler start failed", status.getString("trace"));

        Reply restart = rest.call(HttpMethod.POST, "/listeners/orders/restart?includeMembers=true&onlyFailed=true");
        assertEquals(202, restart.status(), restart::toString);
        JsonArray members = restart.json().getJsonArray("members");
        assertEquals("RUNNING", members.getJsonObject(0).getString("state"));
        assertEquals("RESTARTING", members.getJsonObject(1).getString("state"));
        assertEquals(List.of("orders includeMembers=true onlyFailed=true"), rest.cluster.restarts);
        assertError(rest.call(HttpMethod.POST, "/listeners/orders/restart?onlyFailed=maybe"), 400,
                "query parameter onlyFailed: must be true or false");
        assertError(rest.call(HttpMethod.POST, "/listeners/nope/restart"), 404, "unknown listener 'nope'");
    }

    @Test
    void pauseResumeStopArePersistedAndSurviveARestOfTheRestSide() {
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", ORDERS).status());
        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/orders/pause").status());
        assertEquals("PAUSED", rest.call(HttpMethod.GET, "/listeners/orders/status").json().getString("state"));
        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/orders/pause").status(), "pause is idempotent");

        rest.stop();
        rest.start();
        assertEquals("PAUSED", rest.call(HttpMethod.GET, "/listeners/orders").json().getString("target_state"));
        assertEquals(TargetState.PAUSED, result(rest.plane.states().snapshot(), RestHarness.WAIT).targetState("orders"));

        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/orders/stop").status());
        assertEquals("STOPPED", rest.call(HttpMethod.GET, "/listeners/orders/status").json().getString("state"));
        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/orders/resume").status());
        assertEquals("STARTED", rest.call(HttpMethod.GET, "/listeners/orders").json().getString("target_state"));
        assertError(rest.call(HttpMethod.PUT, "/listeners/nope/pause"), 404, "unknown listener 'nope'");
    }

    @Test
    void initialStateIsStored() {
        String paused = ORDERS.replace("{\"name\": \"orders\",", "{\"name\": \"orders\", \"initial_state\": \"PAUSED\",");
        Reply created = rest.call(HttpMethod.POST, "/listeners", paused);
        assertEquals(201, created.status(), created::toString);
        assertEquals("PAUSED", created.json().getString("target_state"));
    }

    @Test
    void shardPauseAndResume() {
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", ORDERS).status());
        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/orders/shards/orders/1/pause").status());
        TargetStates states = result(rest.plane.states().snapshot(), RestHarness.WAIT);
        assertEquals(List.of(new ShardId("orders", 1)), List.copyOf(states.pausedShards("orders")));
        assertEquals(TargetState.STARTED, states.targetState("orders"));
        JsonArray shards = rest.call(HttpMethod.GET, "/listeners/orders/status").json().getJsonArray("shards");
        assertEquals("UNASSIGNED", shards.getJsonObject(0).getString("state"));
        assertEquals("PAUSED", shards.getJsonObject(1).getString("state"));

        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/orders/shards/orders/1/resume").status());
        assertThat(result(rest.plane.states().snapshot(), RestHarness.WAIT).pausedShards("orders")).isEmpty();

        assertError(rest.call(HttpMethod.PUT, "/listeners/orders/shards/orders/2/pause"), 404,
                "listener 'orders' has no shard orders:2 (stream 'orders' has 2 shards)");
        assertError(rest.call(HttpMethod.PUT, "/listeners/orders/shards/payments/0/pause"), 404,
                "it does not consume stream 'payments'");
        assertError(rest.call(HttpMethod.PUT, "/listeners/orders/shards/orders/x/pause"), 400,
                "shard: must be a shard index");
        assertError(rest.call(HttpMethod.PUT, "/listeners/orders/shards/orders/-1/resume"), 400,
                "shard: must be a shard index");
    }

    @Test
    void deletingAListenerForgetsItsTargetStates() {
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", ORDERS).status());
        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/orders/pause").status());
        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/orders/shards/orders/0/pause").status());
        assertEquals(204, rest.call(HttpMethod.DELETE, "/listeners/orders").status());
        TargetStates states = result(rest.plane.states().snapshot(), RestHarness.WAIT);
        assertEquals(TargetState.STARTED, states.targetState("orders"));
        assertThat(states.pausedShards("orders")).isEmpty();
        assertThat(states.revision()).isGreaterThan(3);
    }

    @Test
    void groupsAndAudit() {
        rest.cluster.groups.put("orders", new GroupView("orders", 4, 3, "range", List.of(new GroupMemberView(
                "worker-a-orders-m0", "worker-a", "UNREVOKED_SHARDS", 3, List.of("orders:0", "orders:1"),
                List.of("orders:0"), List.of("orders:1")))));
        rest.cluster.groups.put("quiet", new GroupView("quiet", 1, 1, "range", List.of()));
        // The audit trail as the leader's guarded append stores it, committed at Redis times 1000 and 2000 ms, with
        // an entry in between that no leader wrote (skipped).
        String trail = new MetadataKeys(rest.cluster.clusterName()).audit("orders");
        xadd(trail, "1000-0", RedisAuditLog.encode(new AuditEvent(7, "orders", AuditType.MEMBER_JOINED,
                "worker-a-orders-m0", Optional.empty(), 1, 0, 1, "joined")));
        xadd(trail, "1500-0", "{not json");
        xadd(trail, "2000-0", RedisAuditLog.encode(new AuditEvent(8, "orders", AuditType.SHARD_REVOKE_REQUESTED,
                "worker-a-orders-m0", Optional.of(new ShardId("orders", 1)), 4, 3, 3, "rebalance")));

        JsonObject group = rest.call(HttpMethod.GET, "/groups/orders").json();
        assertEquals(4, group.getInteger("group_epoch"));
        assertEquals(List.of("orders:1"), group.getJsonArray("members").getJsonObject(0)
                .getJsonArray("pending_revocation").getList());
        JsonArray audit = rest.call(HttpMethod.GET, "/groups/orders/audit?limit=1").array();
        assertEquals(1, audit.size());
        assertEquals("orders:1", audit.getJsonObject(0).getString("shard"));
        assertEquals(new JsonArray()
                .add(new JsonObject().put("time_ms", 1000).put("type", "MEMBER_JOINED")
                        .put("member_id", "worker-a-orders-m0").put("group_epoch", 1).put("assignment_epoch", 0)
                        .put("member_epoch", 1).put("reason", "joined"))
                .add(new JsonObject().put("time_ms", 2000).put("type", "SHARD_REVOKE_REQUESTED")
                        .put("member_id", "worker-a-orders-m0").put("shard", "orders:1").put("group_epoch", 4)
                        .put("assignment_epoch", 3).put("member_epoch", 3).put("reason", "rebalance")),
                rest.call(HttpMethod.GET, "/groups/orders/audit?limit=2").array(),
                "newest last, the malformed entry skipped and an older one read in its place");
        assertEquals(2, rest.call(HttpMethod.GET, "/groups/orders/audit").array().size());
        assertEquals(new JsonArray(), rest.call(HttpMethod.GET, "/groups/quiet/audit").array());

        assertError(rest.call(HttpMethod.GET, "/groups/nope"), 404, "unknown group 'nope'");
        assertError(rest.call(HttpMethod.GET, "/groups/nope/audit"), 404, "unknown group 'nope'");
        assertError(rest.call(HttpMethod.GET, "/groups/orders/audit?limit=0"), 400,
                "query parameter limit: must be an integer in 1..10000");
    }

    private void xadd(String key, String id, String event) {
        send(Request.cmd(Command.XADD).arg(key).arg(id).arg(RedisAuditLog.FIELD).arg(event));
    }

    @Test
    void healthIsReadyWhenJoinedWithALeaderAndRedis() {
        Reply ready = rest.call(HttpMethod.GET, "/health");
        assertEquals(200, ready.status(), ready::toString);
        assertEquals("healthy", ready.json().getString("status"));
        assertEquals(true, ready.json().getBoolean("redis_reachable"));

        rest.cluster.leader = null;
        Reply starting = rest.call(HttpMethod.GET, "/health");
        assertEquals(503, starting.status());
        assertEquals("starting", starting.json().getString("status"));
        assertEquals("no leader known", starting.json().getString("message"));
        assertEquals(true, starting.json().getBoolean("live"));
    }

    @Test
    void unknownRoutesMethodsAndLargeBodiesGetJsonErrors() {
        assertError(rest.call(HttpMethod.GET, "/nothing/here"), 404, "no such resource: GET /nothing/here");
        assertError(rest.call(HttpMethod.PATCH, "/listeners"), 405, "method PATCH not allowed");
        String big = "{\"name\": \"x\", \"config\": {\"a\": \"" + "x".repeat(1024 * 1024) + "\"}}";
        assertError(rest.call(HttpMethod.POST, "/listeners", big), 413, "request body larger than 1048576 bytes");
        for (String body : rest.bodies) {
            assertThat(body).doesNotContain("\tat ").doesNotContain("Exception");
        }
    }

    @Test
    void metricsInPrometheusTextAndJsonIncludingSampledShardGauges() {
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", ORDERS).status());
        ShardId s1 = new ShardId("orders", 1);
        send(Request.cmd(Command.XADD).arg(s1.key()).arg("*").arg("k").arg("v"));
        send(Request.cmd(Command.XGROUP).arg("CREATE").arg(s1.key()).arg("orders").arg("0"));
        send(Request.cmd(Command.HSET).arg(s1.ownerKey("orders")).arg("owner").arg("worker-a-orders-m0").arg("epoch").arg(1));
        new io.shardline.runtime.shard.ConsumptionMetrics(rest.registry, "orders");
        rest.cluster.members.put("orders", List.of(new MemberStatus("worker-a-orders-m0", "worker-a",
                ListenerState.RUNNING, 1, List.of("orders:1"), null)));
        // This worker (worker-a, the leader) exports the shard its member owns and the unowned ones.
        ListenerStatusSampler sampler = new ListenerStatusSampler(rest.vertx, rest.plane, "worker-a", rest.registry,
                new ShardMetrics(rest.registry), new ListenerHistory(), () -> true, () -> 1_000L);
        result(sampler.sample(), RestHarness.WAIT);

        Reply text = rest.call(HttpMethod.GET, "/metrics");
        assertEquals(200, text.status(), text::toString);
        assertThat(text.header("Content-Type")).startsWith("text/plain; version=0.0.4");
        java.util.Set<String> families = DropwizardExporterTest.parse(text.body());
        assertThat(families).contains("shardline_listener_records_handled_total", "shardline_shard_lag",
                "shardline_listener_shards_owned", "shardline_listener_handler_batch_time_seconds");
        assertThat(text.body()).contains("shardline_shard_lag{listener=\"orders\",stream=\"orders\",shard=\"1\",} 1.0")
                .contains("shardline_shard_owned{listener=\"orders\",stream=\"orders\",shard=\"0\",} 0.0")
                .contains("shardline_listener_shards_owned{listener=\"orders\",} 1.0");

        Reply json = rest.call(HttpMethod.GET, "/metrics?format=json");
        assertEquals(200, json.status(), json::toString);
        assertEquals("meter", json.json().getJsonObject("shardline.listener.orders.records.handled").getString("type"));
        assertEquals(1, json.json().getJsonObject("shardline.shard.orders.{orders:1}.lag").getInteger("value"));
        assertError(rest.call(HttpMethod.GET, "/metrics?format=xml"), 400, "query parameter format");

        // Another worker (not the leader) exports only the shards its own members own: none here.
        com.codahale.metrics.MetricRegistry other = new com.codahale.metrics.MetricRegistry();
        ListenerStatusSampler otherSampler = new ListenerStatusSampler(rest.vertx, rest.plane, "worker-b", other,
                new ShardMetrics(other), new ListenerHistory(), () -> false, () -> 1_000L);
        result(otherSampler.sample(), RestHarness.WAIT);
        assertThat(other.getNames()).noneMatch(n -> n.startsWith("shardline.shard.orders."))
                .contains("shardline.listener.orders.shards.owned");
        otherSampler.close();

        assertEquals(204, rest.call(HttpMethod.DELETE, "/listeners/orders").status());
        result(sampler.sample(), RestHarness.WAIT);
        assertThat(rest.registry.getNames()).noneMatch(n -> n.startsWith("shardline.shard.orders."))
                .noneMatch(n -> n.startsWith("shardline.listener.orders."));
        sampler.close();
    }

    private void send(Request request) {
        result(rest.redis.send(request), RestHarness.WAIT);
    }

    private static void assertError(Reply reply, int status, String messagePart) {
        assertEquals(status, reply.status(), reply::toString);
        assertEquals("application/json", reply.header("Content-Type"));
        JsonObject json = reply.json();
        assertEquals(status, json.getInteger("error_code"));
        assertThat(json.getString("message")).contains(messagePart);
        assertEquals(2, json.size(), "only error_code and message: " + json);
    }

    private static JsonObject find(JsonArray array, String field, String value) {
        return array.stream().map(JsonObject.class::cast).filter(o -> value.equals(o.getString(field))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + field + "=" + value + " in " + array));
    }
}
