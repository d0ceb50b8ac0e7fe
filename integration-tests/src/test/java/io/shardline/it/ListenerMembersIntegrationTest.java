package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.runtime.cli.Shardline;
import io.shardline.runtime.control.ListenerFileWatch;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * On a worker JVM from the built distribution and a real Redis (docs/operations.md, "Retention"; docs/rest.md):
 * <ul>
 *   <li>retention held back by a stopped group: the listener {@code orders} keeps {@code retention.max.length = 5};
 *       the stopped listener {@code slow} (another group on the stream) has read nothing, so the leader keeps every
 *       entry and warns naming {@code slow}; once {@code slow} is resumed and catches up, every shard is trimmed to
 *       5 and the leader says retention is no longer held back;</li>
 *   <li>ack-delete on that shared stream is refused (409 naming the key, the stream and the other group);</li>
 *   <li>a listener file edited while the worker runs is reported (a warning naming the file, the changed key and
 *       how to apply it), not applied silently or ignored silently;</li>
 *   <li>members as Connect's tasks: one member restarted over REST (and one with {@code bin/shardline listeners
 *       restart --member}) leaves and rejoins, its member epoch moves and the other's shards come back; a listener
 *       restart moves every member's epoch; {@code onlyFailed=true} on a healthy listener restarts nothing, and
 *       with a member that failed for good it restarts that member only.</li>
 * </ul>
 * One worker: none of this depends on several. Tagged {@code integration}; run it alone with {@code mvn -B -ntp
 * verify -pl integration-tests -am -Dtest=ListenerMembersIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class ListenerMembersIntegrationTest {

    private static final int SHARDS = 4;
    private static final String TOKEN = "it-members-token";
    private static final Duration JOIN = Duration.ofSeconds(150);
    /** A change reaches the worker within a heartbeat interval (500 ms), a retention pass takes 4 ticks of 100 ms. */
    private static final Duration SETTLE = Duration.ofSeconds(60);

    /** The worker looks at its listener files every {@link ListenerFileWatch#INTERVAL_MS}. */
    private static final Duration FILE_WATCH = Duration.ofMillis(3 * ListenerFileWatch.INTERVAL_MS);

    private ItFleet fleet;

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void retentionWaitsForAStoppedGroupAndMembersRestartAsConnectTasks(RedisServer redis) throws Exception {
        fleet = ItFleet.create("members");
        List<Integer> ports = FreePorts.take(2);
        fleet.listener("orders", "handler=logging-sink", "handler.config.log.every=1000", "streams=orders:" + SHARDS,
                "group=orders", "concurrency=2", "start.from=earliest", "retention.max.length=5");
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 1));
        common.put("redis.url", redis.uri());
        common.put("session.timeout.ms", "4000");
        common.put("heartbeat.interval.ms", "500");
        common.put("rest.auth.token", TOKEN);
        common.put("retention.interval.ms", "100");
        common.put("retention.shards.per.tick", "1");
        WorkerProcess worker = fleet.start("w0", ItFleet.withPorts(common, ports.get(0), ports.get(1)));
        worker.await("joined cluster", JOIN);
        RestClient rest = new RestClient(ports.get(1), TOKEN);

        // A second group on the stream: created running (its Redis groups exist), then stopped.
        JsonObject slow = new JsonObject().put("handler", "logging-sink").put("streams", "orders:" + SHARDS)
                .put("group", "slow").put("start.from", "earliest");
        assertThat(rest.call("POST", "/listeners", new JsonObject().put("name", "slow").put("config", slow), true)
                .status()).isEqualTo(201);
        awaitMembers(rest, "slow", m -> m.size() == 1 && !m.getJsonObject(0).getJsonArray("shards").isEmpty(),
                "listener slow's member owning shards");
        assertThat(rest.call("PUT", "/listeners/slow/stop", null, true).status()).isEqualTo(202);
        awaitMembers(rest, "slow", JsonArray::isEmpty, "listener slow's members gone after stop");

        // ack-delete beside group slow is refused.
        JsonObject cleaner = new JsonObject().put("handler", "logging-sink").put("streams", "orders:" + SHARDS)
                .put("ack.mode", "ack-delete");
        RestClient.Reply refused = rest.call("POST", "/listeners", new JsonObject().put("name", "cleaner")
                .put("config", cleaner), true);
        assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        assertThat(refused.json().getString("message")).contains("config.ack.mode = 'ack-delete'", "stream 'orders'",
                "group 'orders'");

        // Held back: orders reads everything, slow nothing; nothing is trimmed and the leader names slow.
        StreamProducer.produce(redis, "orders", SHARDS, 15);
        new ClusterProbe(redis).awaitDrained("orders", "orders", SHARDS, SETTLE);
        worker.await("by group(s) [slow]", SETTLE);
        awaitMetric(rest, "shardline_retention_held_back_shards{stream=\"orders\",} " + SHARDS);
        assertThat(lengths(redis).values()).as("nothing slow has not read is trimmed").containsOnly(15L);

        // Released: slow catches up, every shard is trimmed to 5.
        assertThat(rest.call("PUT", "/listeners/slow/resume", null, true).status()).isEqualTo(202);
        new ClusterProbe(redis).awaitDrained("orders", "slow", SHARDS, SETTLE);
        worker.await("Retention of stream 'orders' is no longer held back (was by group(s) [slow])", SETTLE);
        awaitLengths(redis, l -> l.values().stream().allMatch(n -> n <= 5), "every shard trimmed to 5");

        // A listener file edited while the worker runs is not applied before a restart, and the worker says so.
        fleet.listener("orders", "handler=logging-sink", "handler.config.log.every=500", "streams=orders:" + SHARDS,
                "group=orders", "concurrency=2", "start.from=earliest", "retention.max.length=5");
        worker.await("Listener file " + fleet.listeners.resolve("orders.properties") + " changed after this worker "
                + "started (key handler.config.log.every); listener 'orders' still runs its old definition here: "
                + "restart this worker to apply it", FILE_WATCH);

        // Members as tasks: one member restarts, its epoch moves.
        JsonArray members = awaitMembers(rest, "orders", m -> m.size() == 2 && owning(m, 2),
                "two members of orders with two shards each");
        String m0 = members.getJsonObject(0).getString("id");
        int before = members.getJsonObject(0).getInteger("epoch");
        RestClient.Reply restart = rest.call("POST", "/listeners/orders/members/" + m0 + "/restart", null, true);
        assertThat(restart.status()).as(restart.body()).isEqualTo(202);
        assertThat(restart.json().getString("state")).isEqualTo("RESTARTING");
        awaitMember(rest, m0, s -> s.getInteger("epoch") > before && s.getJsonArray("shards").size() == 2,
                "member " + m0 + " back with two shards and an epoch above " + before);

        // A listener restart moves every member's epoch.
        JsonArray settled = awaitMembers(rest, "orders", m -> m.size() == 2 && owning(m, 2), "orders settled");
        Map<String, Integer> epochs = epochs(settled);
        assertThat(rest.call("POST", "/listeners/orders/restart?includeTasks=true", null, true).status()).isEqualTo(202);
        awaitMembers(rest, "orders", m -> m.size() == 2 && owning(m, 2) && epochs(m).entrySet().stream()
                .allMatch(e -> e.getValue() > epochs.get(e.getKey())), "both members rejoined with higher epochs "
                + "than " + epochs);

        // onlyFailed on a healthy listener restarts nothing.
        JsonObject none = rest.call("POST", "/listeners/orders/restart?onlyFailed=true", null, true).json();
        assertThat(none.getJsonArray("members").stream().map(o -> ((JsonObject) o).getString("state")))
                .doesNotContain("RESTARTING");
        assertThat(rest.call("GET", "/listeners/orders/members/nope/status", null, true).status()).isEqualTo(404);

        // The same with bin/shardline.
        String url = "http://127.0.0.1:" + ports.get(1);
        Path tokenFile = Files.writeString(fleet.dir.resolve("cli.token"), TOKEN + "\n");
        JsonArray now = awaitMembers(rest, "orders", m -> m.size() == 2 && owning(m, 2), "orders settled again");
        String m1 = now.getJsonObject(1).getString("id");
        int m1Before = now.getJsonObject(1).getInteger("epoch");
        assertThat(cli(url, tokenFile, "listeners", "members", "orders")).contains("MEMBER", "EPOCH", m0, m1);
        assertThat(cli(url, tokenFile, "listeners", "restart", "orders", "--member", m1))
                .contains("Restart of member " + m1 + " of listener orders requested");
        awaitMember(rest, m1, s -> s.getInteger("epoch") > m1Before && s.getJsonArray("shards").size() == 2,
                "member " + m1 + " restarted by bin/shardline");
    }

    /**
     * Connect's {@code onlyFailed=true} with a member that really failed: its shard's dead-letter stream cannot be
     * written (a key of another type), so a record that fails for good stops that member's shard; the restart
     * restarts that member only, and once the key is fixed the record goes to the dead-letter stream.
     */
    @Test
    void onlyFailedRestartsTheMemberWhoseShardStoppedForGood(RedisServer redis) throws Exception {
        fleet = ItFleet.create("only-failed");
        Path plugins = PluginJars.build("halt-handler", fleet.dir.resolve("halt-plugins")).getParent();
        List<Integer> ports = FreePorts.take(2);
        fleet.listener("failing", "handler=halt", "streams=failing:2", "group=failing", "concurrency=2",
                "start.from=earliest", "dead.letter.stream=failing.dlq");
        Map<String, String> settings = ItFleet.withPorts(fleet.commonSettings(ports.subList(0, 1)), ports.get(0),
                ports.get(1));
        settings.put("plugin.path", settings.get("plugin.path") + "," + plugins);
        settings.put("redis.url", redis.uri());
        settings.put("session.timeout.ms", "4000");
        settings.put("heartbeat.interval.ms", "500");
        settings.put("rest.auth.token", TOKEN);
        try (RespProbe probe = redis.probe()) {
            probe.call("SET", "failing.dlq", "not a stream");
        }
        WorkerProcess worker = fleet.start("w0", settings);
        worker.await("joined cluster", JOIN);
        RestClient rest = new RestClient(ports.get(1), TOKEN);
        JsonArray members = awaitMembers(rest, "failing", m -> m.size() == 2 && owning(m, 1),
                "two members of failing with a shard each");
        JsonObject owner = members.stream().map(o -> (JsonObject) o)
                .filter(m -> m.getJsonArray("shards").contains("failing:0")).findFirst().orElseThrow();
        String failed = owner.getString("id");
        String healthy = members.stream().map(o -> ((JsonObject) o).getString("id")).filter(id -> !id.equals(failed))
                .findFirst().orElseThrow();
        int before = owner.getInteger("epoch");

        try (RespProbe probe = redis.probe()) {
            probe.call("XADD", "{failing:0}", "*", "fail", "true");
        }
        awaitMembers(rest, "failing", m -> state(m, failed).equals("FAILED") && state(m, healthy).equals("RUNNING"),
                failed + " FAILED (its dead-letter write is refused) and " + healthy + " RUNNING");
        try (RespProbe probe = redis.probe()) {
            probe.call("DEL", "failing.dlq");
        }

        RestClient.Reply restart = rest.call("POST", "/listeners/failing/restart?onlyFailed=true", null, true);
        assertThat(restart.status()).as(restart.body()).isEqualTo(202);
        Map<String, String> states = new TreeMap<>();
        restart.json().getJsonArray("members").forEach(o -> states.put(((JsonObject) o).getString("id"),
                ((JsonObject) o).getString("state")));
        assertThat(states).as("only the failed member restarts").containsEntry(failed, "RESTARTING")
                .doesNotContainEntry(healthy, "RESTARTING");
        awaitMembers(rest, "failing", m -> m.size() == 2 && owning(m, 1) && epochs(m).get(failed) > before,
                failed + " running again with an epoch above " + before);
        assertThat(worker.find("restart of member " + failed + " requested")).isPresent();
        assertThat(worker.find("restart of member " + healthy + " requested")).isEmpty();
        try (RespProbe probe = redis.probe()) {
            long end = System.nanoTime() + SETTLE.toNanos();
            while ((Long) probe.call("XLEN", "failing.dlq") < 1 && System.nanoTime() < end) {
                WorkerProcess.pause(200);
            }
            assertThat((Long) probe.call("XLEN", "failing.dlq")).as("the failing record dead-lettered").isEqualTo(1L);
        }
    }

    private static String state(JsonArray members, String id) {
        return members.stream().map(o -> (JsonObject) o).filter(m -> m.getString("id").equals(id))
                .map(m -> m.getString("state")).findFirst().orElse("ABSENT");
    }

    private static boolean owning(JsonArray members, int each) {
        return members.stream().allMatch(o -> ((JsonObject) o).getJsonArray("shards").size() == each
                && "RUNNING".equals(((JsonObject) o).getString("state")));
    }

    private static Map<String, Integer> epochs(JsonArray members) {
        Map<String, Integer> out = new TreeMap<>();
        members.forEach(o -> out.put(((JsonObject) o).getString("id"), ((JsonObject) o).getInteger("epoch")));
        return out;
    }

    private static JsonArray awaitMembers(RestClient rest, String listener, Predicate<JsonArray> condition,
                                          String what) {
        long end = System.nanoTime() + SETTLE.toNanos();
        JsonArray last = null;
        while (System.nanoTime() < end) {
            last = rest.getArray("/listeners/" + listener + "/members");
            if (condition.test(last)) {
                return last;
            }
            WorkerProcess.pause(200);
        }
        throw new AssertionError("timed out after " + SETTLE + " waiting for " + what + "; last: " + last);
    }

    private static void awaitMember(RestClient rest, String member, Predicate<JsonObject> condition, String what) {
        long end = System.nanoTime() + SETTLE.toNanos();
        RestClient.Reply last = null;
        while (System.nanoTime() < end) {
            last = rest.call("GET", "/listeners/orders/members/" + member + "/status", null, true);
            if (last.status() == 200 && condition.test(last.json())) {
                return;
            }
            WorkerProcess.pause(200);
        }
        throw new AssertionError("timed out after " + SETTLE + " waiting for " + what + "; last: " + last.body());
    }

    /** Waits for a line of {@code GET /metrics} (the leader exports retention's gauges) that starts with {@code line}. */
    private static void awaitMetric(RestClient rest, String line) {
        long end = System.nanoTime() + SETTLE.toNanos();
        String last = "";
        while (System.nanoTime() < end) {
            last = rest.call("GET", "/metrics", null, true).body();
            if (last.lines().anyMatch(l -> l.startsWith(line))) {
                return;
            }
            WorkerProcess.pause(200);
        }
        throw new AssertionError("timed out after " + SETTLE + " waiting for metric " + line + "; retention lines: "
                + last.lines().filter(l -> l.contains("retention")).toList());
    }

    private static Map<Integer, Long> lengths(RedisServer redis) throws IOException {
        Map<Integer, Long> out = new TreeMap<>();
        try (RespProbe probe = redis.probe()) {
            for (int i = 0; i < SHARDS; i++) {
                out.put(i, (Long) probe.call("XLEN", "{orders:" + i + "}"));
            }
        }
        return out;
    }

    private static void awaitLengths(RedisServer redis, Predicate<Map<Integer, Long>> condition, String what)
            throws IOException {
        long end = System.nanoTime() + SETTLE.toNanos();
        Map<Integer, Long> last = Map.of();
        while (System.nanoTime() < end) {
            last = lengths(redis);
            if (condition.test(last)) {
                return;
            }
            WorkerProcess.pause(200);
        }
        throw new AssertionError("timed out after " + SETTLE + " waiting for " + what + "; lengths " + last);
    }

    /** Runs a {@code bin/shardline} command in this JVM, as the script runs it ({@link Shardline#commandLine()}). */
    private static String cli(String url, Path tokenFile, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--url", url, "--token-file", tokenFile.toString()));
        StringWriter out = new StringWriter();
        PrintWriter writer = new PrintWriter(out, true);
        int exit = Shardline.commandLine().setOut(writer).setErr(writer).execute(all.toArray(String[]::new));
        writer.flush();
        assertThat(exit).as("bin/shardline %s: %s", all, out).isZero();
        return out.toString();
    }
}
