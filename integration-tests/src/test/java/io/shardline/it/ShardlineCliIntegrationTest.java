package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.runtime.cli.Shardline;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/shardline}'s commands (run in this JVM as the script runs them; the script itself from the distribution
 * for the token and exit-code cases) against a worker JVM and a real Redis (docs/cli.md): listeners
 * list/status/stop/resume/pause/restart, offsets show and reset (a dry run changes nothing; {@code --execute} while
 * the listener runs exits 5, when stopped moves the shard), groups list/describe and delete (exit 5 while in use),
 * loggers list and set ({@code --cluster}), with the token from {@code --token-file} and from
 * {@code SHARDLINE_TOKEN}; a wrong token exits 6, an unknown listener 4, a worker not listening 3. The listener
 * config's GET and PATCH (a null removes a key, a bad value is refused naming it) over REST.
 *
 * <p>Tagged {@code integration}. Run it alone with {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=ShardlineCliIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class ShardlineCliIntegrationTest {

    private static final String TOKEN = "it-cli-token";
    private static final Duration JOIN = Duration.ofSeconds(150);
    private static final Duration SETTLE = Duration.ofSeconds(60);

    private ItFleet fleet;
    private String url;
    private Path tokenFile;

    /** One run of the command: exit code and output (stdout and stderr together). */
    private record Run(int exit, String out) {
    }

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void adminCommandDrivesListenersOffsetsGroupsAndLoggers(RedisServer redis) throws Exception {
        fleet = ItFleet.create("cli");
        List<Integer> ports = FreePorts.take(3);
        fleet.listener("orders", "handler=logging-sink", "handler.config.log.every=1000", "streams=orders:2",
                "group=orders", "concurrency=1", "start.from=earliest");
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 1));
        common.put("redis.url", redis.uri());
        common.put("session.timeout.ms", "4000");
        common.put("heartbeat.interval.ms", "500");
        common.put("rest.auth.token", TOKEN);
        fleet.start("w0", ItFleet.withPorts(common, ports.get(0), ports.get(1))).await("joined cluster", JOIN);
        url = "http://127.0.0.1:" + ports.get(1);
        tokenFile = Files.writeString(fleet.dir.resolve("cli.token"), TOKEN + "\n");
        RestClient rest = new RestClient(ports.get(1), TOKEN);
        StreamProducer.produce(redis, "orders", 2, 10);
        new ClusterProbe(redis).awaitDrained("orders", "orders", 2, SETTLE);

        // listeners list and status: tables by default, JSON with --json.
        Run list = awaitOut(List.of("listeners", "list"), "RUNNING");
        assertThat(list.out()).contains("LISTENER", "orders", "RUNNING");
        JsonObject status = new JsonObject(ok("listeners", "status", "orders", "--json"));
        assertThat(status.getString("group")).isEqualTo("orders");
        assertThat(ok("listeners", "status", "orders")).contains("MEMBER", "w0-orders-m0", "orders", "LAST-PROCESSED");

        // offsets show; reset dry run (changes nothing) and --execute while running (exit 5).
        assertThat(ok("offsets", "show", "orders")).contains("LAST-DELIVERED", "start.from earliest");
        String dry = ok("offsets", "reset", "orders", "--to", "earliest", "--shard", "orders:1");
        assertThat(dry).contains("BEFORE", "AFTER", "0-0", "Dry run");
        assertThat(lastDelivered(rest, 1)).isNotEqualTo("0-0");
        Run running = run("offsets", "reset", "orders", "--to", "earliest", "--execute");
        assertThat(running.exit()).as(running.out()).isEqualTo(5);
        assertThat(running.out()).contains("STOPPED");

        // groups list / describe; delete while in use exits 5.
        assertThat(ok("groups", "list")).contains("GROUP", "orders", "ACTIVE");
        assertThat(ok("groups", "describe", "orders")).contains("Group orders: ACTIVE", "w0-orders-m0", "LAST-DELIVERED");
        Run inUse = run("groups", "delete", "orders");
        assertThat(inUse.exit()).as(inUse.out()).isEqualTo(5);

        // Stopped: --execute moves shard 1 (a time position with '@') and the other stays.
        assertThat(ok("listeners", "stop", "orders")).contains("Stop of listener orders requested");
        awaitOut(List.of("listeners", "list"), "STOPPED");
        awaitMembersGone(rest);
        String executed = ok("offsets", "reset", "orders", "--to", "@1", "--shard", "orders:1", "--execute");
        assertThat(executed).contains("altered successfully", "0-0");
        assertThat(lastDelivered(rest, 1)).isEqualTo("0-0");
        assertThat(lastDelivered(rest, 0)).isNotEqualTo("0-0");
        JsonObject latest = new JsonObject(ok("offsets", "reset", "orders", "--to=-1d", "--execute", "--json"));
        assertThat(latest.getJsonArray("changes")).hasSize(2);
        assertThat(run("offsets", "reset", "orders", "--to", "soon").exit()).isEqualTo(1);
        assertThat(run("offsets", "reset", "orders", "--to", "latest", "--shard", "orders").exit()).isEqualTo(2);

        // resume, pause, restart.
        assertThat(ok("listeners", "resume", "orders")).contains("Resume");
        awaitOut(List.of("listeners", "list"), "RUNNING");
        ok("listeners", "pause", "orders");
        awaitOut(List.of("listeners", "list"), "PAUSED");
        ok("listeners", "resume", "orders");
        awaitOut(List.of("listeners", "list"), "RUNNING");
        assertThat(ok("listeners", "restart", "orders", "--include-members")).contains("w0-orders-m0");

        // loggers: set on every worker, then listed.
        assertThat(ok("loggers", "io.shardline.runtime.rest", "DEBUG", "--cluster")).contains("DEBUG", "w0");
        assertThat(ok("loggers")).contains("io.shardline.runtime.rest", "DEBUG");
        assertThat(rest.get("/admin/loggers").getJsonObject("io.shardline.runtime.rest").getString("level"))
                .isEqualTo("DEBUG");
        assertThat(run("loggers", "io.shardline.runtime.rest", "LOUD").exit()).isEqualTo(1);

        // Streams: the running listener's stream has a topology; one is created from the command line, once.
        assertThat(ok("streams", "create", "cli-made", "--shards", "3")).contains("Created stream cli-made with 3");
        assertThat(run("streams", "create", "cli-made", "--shards", "5").exit()).isEqualTo(5);
        assertThat(ok("streams", "list")).contains("cli-made", "orders", "STABLE");
        assertThat(ok("streams", "describe", "orders")).contains("Stream orders:", "routing epoch 1", "STABLE",
                "listener orders");

        // Errors: unknown listener 4, wrong token 6, nobody listening 3.
        assertThat(run("offsets", "show", "nope").exit()).isEqualTo(4);
        Run denied = runWith(List.of("groups", "list", "--url", url, "--token", "wrong"), Map.of());
        assertThat(denied.exit()).as(denied.out()).isEqualTo(6);
        Run env = runWith(List.of("groups", "list", "--url", url), Map.of("SHARDLINE_TOKEN", TOKEN));
        assertThat(env.exit()).as(env.out()).isZero();
        Run down = runWith(List.of("groups", "list", "--url", "http://127.0.0.1:" + ports.get(2), "--token", TOKEN),
                Map.of());
        assertThat(down.exit()).as(down.out()).isEqualTo(3);

        // A stopped group is deleted by the command.
        ok("listeners", "stop", "orders");
        awaitOut(List.of("groups", "list"), "EMPTY");
        assertThat(ok("groups", "delete", "orders")).contains("Deleted group orders.");
        assertThat(ok("groups", "list", "--json")).contains("NOT_CREATED");

        // Listener config over REST: GET, PATCH with a null removing a key, a bad value refused naming it.
        JsonObject config = new JsonObject().put("handler", "logging-sink").put("streams", "audit:1")
                .put("group", "audit").put("concurrency", "1").put("handler.config.log.every", "5");
        assertThat(rest.call("POST", "/listeners", new JsonObject().put("name", "audit").put("config", config), true)
                .status()).isEqualTo(201);
        assertThat(rest.get("/listeners/audit/config").getString("handler.config.log.every")).isEqualTo("5");
        RestClient.Reply patched = rest.call("PATCH", "/listeners/audit/config", new JsonObject()
                .put("handler.config.log.every", null).put("concurrency", "2"), true);
        assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        JsonObject after = rest.get("/listeners/audit/config");
        assertThat(after.containsKey("handler.config.log.every")).isFalse();
        assertThat(after.getString("concurrency")).isEqualTo("2");
        RestClient.Reply bad = rest.call("PATCH", "/listeners/audit/config", new JsonObject().put("concurrency", "many"),
                true);
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().getString("message")).contains("concurrency");
        assertThat(rest.call("PATCH", "/listeners/orders/config", new JsonObject().put("concurrency", "2"), true)
                .status()).as("a file listener").isEqualTo(409);
    }

    private static void awaitMembersGone(RestClient rest) {
        long end = System.nanoTime() + SETTLE.toNanos();
        JsonObject last = null;
        while (System.nanoTime() < end) {
            last = rest.get("/listeners/orders/status");
            if (last.getJsonArray("members").isEmpty()) {
                return;
            }
            WorkerProcess.pause(100);
        }
        throw new AssertionError("timed out after " + SETTLE + " waiting for the members of orders to leave: " + last);
    }

    private String lastDelivered(RestClient rest, int shard) {
        return ((JsonObject) rest.get("/listeners/orders/offsets").getJsonArray("shards").getValue(shard))
                .getString("last_delivered_id");
    }

    private String ok(String... args) {
        Run r = run(args);
        assertThat(r.exit()).as("bin/shardline %s: %s", String.join(" ", args), r.out()).isZero();
        return r.out();
    }

    /**
     * Runs the command in this JVM ({@link Shardline#commandLine()}, what {@code bin/shardline} runs), with the token
     * from {@code --token-file}. The script itself, the token from the environment and the exit codes as a process
     * sees them are checked with {@link #runWith} (a JVM start costs seconds on a busy machine).
     */
    private Run run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--url", url, "--token-file", tokenFile.toString()));
        StringWriter out = new StringWriter();
        PrintWriter writer = new PrintWriter(out, true);
        int exit = Shardline.commandLine().setOut(writer).setErr(writer).execute(all.toArray(String[]::new));
        writer.flush();
        return new Run(exit, out.toString());
    }

    private Run awaitOut(List<String> args, String text) {
        long end = System.nanoTime() + SETTLE.toNanos();
        Run last = null;
        while (System.nanoTime() < end) {
            last = run(args.toArray(String[]::new));
            if (last.exit() == 0 && last.out().contains(text)) {
                return last;
            }
            WorkerProcess.pause(200);
        }
        throw new AssertionError("timed out after " + SETTLE + " waiting for '" + text + "' from bin/shardline "
                + String.join(" ", args) + "; last: " + last);
    }

    private Run runWith(List<String> args, Map<String, String> env) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(fleet.dist.resolve("bin/shardline").toString()));
        cmd.addAll(args);
        Path out = fleet.dir.resolve("shardline-" + System.nanoTime() + ".out");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().remove("SHARDLINE_TOKEN");
        pb.environment().putAll(env);
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("bin/shardline %s finished", args).isTrue();
        return new Run(p.exitValue(), Files.readString(out));
    }
}
