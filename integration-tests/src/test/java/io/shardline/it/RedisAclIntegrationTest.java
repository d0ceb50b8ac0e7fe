package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A worker JVM from the distribution runs under exactly the ACL that {@code bin/shardline redis-acl} prints (docs/security.md, "Redis";
 * deliverable 8): it starts, processes records and Redis logs no denied command; with {@code PING} denied as well,
 * {@code /health} still says Redis is reachable while records flow. A worker whose ACL lacks its dead-letter key
 * does not start and says which command on which key is missing.
 *
 * <p>Tagged {@code integration}. Run it alone with {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=RedisAclIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class RedisAclIntegrationTest {

    private static final Duration JOIN = Duration.ofSeconds(150);
    private static final int SHARDS = 2;
    private static final String TOKEN = "acl-test-token";

    private ItFleet fleet;

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void aWorkerRunsUnderThePrintedAclAndADeniedPingIsNotAnOutage(RedisServer redis) throws Exception {
        fleet = ItFleet.create("acl");
        fleet.listener("acl", "handler=logging-sink", "streams=acl:" + SHARDS, "group=acl", "concurrency=1",
                "start.from=earliest");
        List<String> rules = printedRules("--stream", "acl", "--cluster", fleet.cluster, "--dead-letter", "acl.dlq",
                "--user", "shardline");
        setUser(redis, rules);
        StreamProducer.produce(redis, "acl", SHARDS, 20);

        List<Integer> ports = FreePorts.take(2);
        WorkerProcess w = fleet.start("w0", settings(redis, ports));
        w.await("joined cluster", JOIN);
        awaitConsumed(redis, 20, w);
        try (RespProbe probe = redis.probe()) {
            assertThat(String.valueOf(probe.call("ACL", "LOG"))).as("commands Redis denied").doesNotContain("shardline");
        }

        // PING denied on the live connections: /health still reports Redis reachable and records still flow.
        try (RespProbe probe = redis.probe()) {
            assertEquals("OK", probe.call("ACL", "SETUSER", "shardline", "-ping"));
        }
        StreamProducer.produce(redis, "acl", SHARDS, 5);
        awaitConsumed(redis, 25, w);
        RestClient rest = new RestClient(ports.get(1), TOKEN);
        JsonObject health = rest.get("/health");
        assertThat(health.getBoolean("redis_reachable")).as("health %s", health).isTrue();
        assertThat(health.getString("message")).doesNotContain("Redis not reachable");

        // A listener created over REST on a stream the ACL does not cover fails, naming what is missing.
        RestClient.Reply created = rest.call("POST", "/listeners", new JsonObject().put("name", "other").put("config",
                new JsonObject().put("handler", "logging-sink").put("streams", "other:1").put("group", "other")
                        .put("concurrency", "1")), true);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String failed = w.await("Listener other failed to start on w0: ", JOIN);
        assertThat(failed).contains("Redis user 'shardline' (redis.user) lacks permissions the worker needs: ",
                "FCALL on key '{other:0}", "XADD on key 'other.dlq'");
        // Its status cannot be read under this user either: a 503 that says which keys and what to check, not a 500.
        RestClient.Reply status = rest.call("GET", "/listeners/other/status", null, true);
        assertThat(status.status()).as(status.body()).isEqualTo(503);
        assertThat(status.body()).contains("cannot read the status of shard", "{other:0}", "redis-acl");
        StreamProducer.produce(redis, "acl", SHARDS, 5);
        awaitConsumed(redis, 30, w);
    }

    @Test
    void aMissingPermissionStopsTheStartAndIsNamed(RedisServer redis) throws Exception {
        fleet = ItFleet.create("acl-missing");
        fleet.listener("acl", "handler=logging-sink", "streams=acl:" + SHARDS, "group=acl", "concurrency=1");
        // No --dead-letter: the listener's acl.dlq is not covered.
        setUser(redis, printedRules("--stream", "acl", "--cluster", fleet.cluster));
        WorkerProcess w = fleet.start("w0", settings(redis, FreePorts.take(2)));
        assertEquals(3, w.waitExit(JOIN), w.tail());
        assertThat(String.join("\n", w.lines())).contains("Redis user 'shardline' (redis.user) lacks permissions the "
                + "worker needs: EVAL on key 'acl.dlq'", "XADD on key 'acl.dlq'", "XREVRANGE on key 'acl.dlq'")
                .doesNotContain("joined cluster");
    }

    private Map<String, String> settings(RedisServer redis, List<Integer> ports) {
        Map<String, String> s = ItFleet.withPorts(fleet.commonSettings(ports.subList(0, 1)), ports.get(0), ports.get(1));
        s.put("redis.url", redis.uri());
        s.put("redis.user", "shardline");
        s.put("redis.password", "acl-pw");
        s.put("rest.auth.token", TOKEN);
        return s;
    }

    /** Runs {@code bin/shardline redis-acl} from the distribution; returns the rules after {@code ACL SETUSER <user>}. */
    private List<String> printedRules(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(fleet.dist.resolve("bin/shardline").toString(), "redis-acl"));
        cmd.addAll(Arrays.asList(args));
        Path out = fleet.dir.resolve("redis-acl-" + System.nanoTime() + ".out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("bin/shardline redis-acl finished").isTrue();
        String printed = Files.readString(out, StandardCharsets.UTF_8).strip();
        assertEquals(0, p.exitValue(), printed);
        assertThat(printed).startsWith("ACL SETUSER shardline ").doesNotContain("\n");
        List<String> words = List.of(printed.split(" "));
        return words.subList(3, words.size());
    }

    private static void setUser(RedisServer redis, List<String> rules) throws IOException {
        List<String> args = new ArrayList<>(List.of("ACL", "SETUSER", "shardline", "reset", ">acl-pw"));
        args.addAll(rules);
        try (RespProbe probe = redis.probe()) {
            assertEquals("OK", probe.call(args.toArray(String[]::new)));
        }
    }

    /** Waits until group {@code acl} has read and acknowledged {@code perShard} entries on every shard. */
    private static void awaitConsumed(RedisServer redis, long perShard, WorkerProcess w) throws IOException {
        long deadline = System.nanoTime() + JOIN.toNanos();
        try (RespProbe probe = redis.probe()) {
            while (System.nanoTime() < deadline) {
                if (consumed(probe, perShard)) {
                    return;
                }
                WorkerProcess.pause(100);
            }
        }
        throw new AssertionError("records not consumed under the ACL:\n" + w.tail());
    }

    private static boolean consumed(RespProbe probe, long perShard) throws IOException {
        for (int shard = 0; shard < SHARDS; shard++) {
            Object groups = probe.call("XINFO", "GROUPS", "{acl:" + shard + "}");
            if (!(groups instanceof List<?> list) || list.isEmpty()) {
                return false;
            }
            List<?> fields = (List<?>) list.get(0);
            Map<String, Object> group = new java.util.HashMap<>();
            for (int i = 0; i + 1 < fields.size(); i += 2) {
                group.put(String.valueOf(fields.get(i)), fields.get(i + 1));
            }
            if (!Long.valueOf(perShard).equals(group.get("entries-read")) || !Long.valueOf(0).equals(group.get("pending"))) {
                return false;
            }
        }
        return true;
    }
}
