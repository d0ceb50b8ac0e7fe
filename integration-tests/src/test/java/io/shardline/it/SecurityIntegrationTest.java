package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.shardline.api.handler.ShardId;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One worker from the distribution with default REST settings, attacked as the security review did: it
 * generated a token only its user can read, so REST needs it even on loopback; a web page's forged write is
 * refused; the webhook-sink exfiltration of environment variables and files through placeholders is refused at
 * create time and, for a configuration planted in Redis directly, on the worker (FAILED), while a variable the
 * operator allowed is resolved; a second start leaves the running worker's pid file alone and
 * {@code bin/stop-worker} stops the worker with a secret variable missing from its own environment.
 */
@RedisTest
class SecurityIntegrationTest {

    private static final Duration JOIN = Duration.ofSeconds(150);
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final String ENV_SECRET = "env-secret-4711";

    private ItFleet fleet;
    private HttpServer receiver;
    private final List<String> received = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopAll() {
        if (receiver != null) {
            receiver.stop(0);
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void defaultWorkerResistsTheReviewsAttacks(RedisServer redis) throws Exception {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/fail", exchange -> {
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        receiver.createContext("/", exchange -> {
            received.add(exchange.getRequestURI().toString());
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        String hook = "http://127.0.0.1:" + receiver.getAddress().getPort();

        fleet = ItFleet.create("sec");
        List<Integer> ports = FreePorts.take(2);
        Map<String, String> settings = ItFleet.withPorts(fleet.commonSettings(ports.subList(0, 1)), ports.get(0),
                ports.get(1));
        settings.put("redis.url", redis.uri());
        settings.put("heartbeat.interval.ms", "500");
        // Resolved from the worker's environment only: bin/stop-worker must not need it.
        settings.put("rest.config.allowed.env", "${env:SL_ALLOWED_NAMES}");
        WorkerProcess w0 = fleet.start("w0", settings, Map.of("SL_TOKEN", ENV_SECRET, "SL_ALLOWED", "allowed-xyz",
                "SL_ALLOWED_NAMES", "SL_ALLOWED"));
        w0.await("joined cluster", JOIN);

        // 1. A token was generated into a file only the worker's user can read; REST needs it on loopback.
        Path tokenFile = fleet.dir.resolve("logs/w0.token");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile))).isEqualTo("rw-------");
        String token = Files.readString(tokenFile).trim();
        RestClient rest = new RestClient(ports.get(1), token);
        assertThat(rest.call("GET", "/listeners", null, false).status()).isEqualTo(401);
        assertThat(rest.call("GET", "/health", null, false).status()).isEqualTo(200);
        assertThat(rest.get("/").getString("worker_id")).isEqualTo("w0");
        assertThat(String.join("\n", w0.lines())).doesNotContain(token);

        // 2. What an HTML form on another site sends, even with the token: refused, nothing created.
        String form = new JsonObject().put("name", "forged").put("config", new JsonObject().put("handler",
                "webhook-sink").put("streams", "forged:1").put("handler.config.url", hook + "/forged")).encode();
        assertThat(rest.call("POST", "/listeners", form, true, Map.of("Content-Type", "text/plain",
                "Origin", "http://evil.example")).status()).isEqualTo(403);
        assertThat(rest.call("POST", "/listeners", form, true, Map.of("Content-Type", "text/plain")).status())
                .isEqualTo(415);
        assertThat(rest.call("GET", "/listeners/forged", null, true).status()).isEqualTo(404);

        // 3. The exfiltration URL: refused at create time, naming the placeholder and the key that would allow it.
        Path config = fleet.dir.resolve("w0.properties");
        String exfil = hook + "/t=${env:SL_TOKEN}/r=${file:" + config + ":redis.url}";
        RestClient.Reply refused = rest.call("POST", "/listeners", listener("exfil", "exfil:1", exfil), true);
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.json().getString("message")).contains("${env:SL_TOKEN}", "rest.config.allowed.env",
                "${file:" + config + ":redis.url}", "rest.config.allowed.dirs");

        // 4. The same planted in Redis directly (a worker with a wider allow-list, an old version): FAILED here.
        String prefix = "{shardline:" + fleet.cluster + "}";
        try (RespProbe probe = redis.probe()) {
            probe.call("HSET", prefix + ":listener-configs", "planted", new JsonObject().put("handler", "webhook-sink")
                    .put("streams", "planted:1").put("start.from", "earliest").put("handler.config.url", exfil).encode());
            probe.call("INCR", prefix + ":control-revision");
            probe.call("XADD", new ShardId("planted", 0).key(), "*", "k", "v");
        }
        JsonObject planted = await(rest, "/listeners/planted/status", s -> "FAILED".equals(s.getString("state")),
                "the planted listener FAILED");
        assertThat(planted.getString("trace")).contains("${env:SL_TOKEN}", "rest.config.allowed.env");

        // 5. A variable the operator allowed is resolved, and the records flow to the webhook.
        assertThat(rest.call("POST", "/listeners", listener("hook", "hook:1", hook + "/a=${env:SL_ALLOWED}"), true)
                .status()).isEqualTo(201);
        await(rest, "/listeners/hook/status", s -> "RUNNING".equals(s.getString("state")), "hook RUNNING");
        try (RespProbe probe = redis.probe()) {
            probe.call("XADD", new ShardId("hook", 0).key(), "*", "k", "v");
        }
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (received.stream().noneMatch(u -> u.contains("allowed-xyz")) && System.nanoTime() < deadline) {
            WorkerProcess.pause(100);
        }
        assertThat(received).anyMatch(u -> u.equals("/a=allowed-xyz"));
        assertThat(received).noneMatch(u -> u.contains(ENV_SECRET) || u.contains("forged"));
        assertThat(String.join("\n", w0.lines())).doesNotContain(ENV_SECRET);

        // 6. A dead-letter stream that cannot be written (a string key: WRONGTYPE) fails the listener visibly.
        try (RespProbe probe = redis.probe()) {
            probe.call("SET", "broken.dlq", "not a stream");
        }
        JsonObject failing = listener("failing", "failing:1", hook + "/fail");
        failing.getJsonObject("config").put("dead.letter.stream", "broken.dlq").put("max.attempts", "1")
                .put("handler.config.retries", "0");
        assertThat(rest.call("POST", "/listeners", failing, true).status()).isEqualTo(201);
        await(rest, "/listeners/failing/status", s -> "RUNNING".equals(s.getString("state")), "failing RUNNING");
        try (RespProbe probe = redis.probe()) {
            probe.call("XADD", new ShardId("failing", 0).key(), "*", "k", "v");
        }
        JsonObject failed = await(rest, "/listeners/failing/status", s -> "FAILED".equals(s.getString("state")),
                "the listener with the broken dead-letter stream FAILED");
        assertThat(failed.getString("trace")).contains("broken.dlq", "WRONGTYPE", "restart the listener");
        assertThat(rest.call("DELETE", "/listeners/failing", null, true).status()).isEqualTo(204);

        // 7. A second start of the same worker fails without touching its pid file; stop-worker stops it, although
        //    SL_ALLOWED_NAMES (a variable of the worker file) is not set in the operator's shell.
        Path pidFile = fleet.dir.resolve("logs/w0.pid");
        String pid = Files.readString(pidFile).trim();
        try (WorkerProcess again = WorkerProcess.start(fleet.dist, fleet.dir, "w0-again", "w0", settings,
                Map.of("SL_ALLOWED_NAMES", "SL_ALLOWED"))) {
            assertThat(again.waitExit(JOIN)).as(again.tail()).isEqualTo(3);
            assertThat(again.find("runs already")).isPresent();
        }
        assertThat(Files.readString(pidFile).trim()).isEqualTo(pid);
        Process stop = new ProcessBuilder(fleet.dist.resolve("bin/stop-worker").toString(), config.toString())
                .redirectErrorStream(true).start();
        String stopOutput = new String(stop.getInputStream().readAllBytes());
        assertThat(stop.waitFor()).as(stopOutput).isZero();
        assertThat(w0.waitExit(SETTLE)).isZero();
    }

    private static JsonObject listener(String name, String streams, String url) {
        return new JsonObject().put("name", name).put("config", new JsonObject().put("handler", "webhook-sink")
                .put("streams", streams).put("start.from", "earliest").put("handler.config.url", url));
    }

    private static JsonObject await(RestClient rest, String path, Predicate<JsonObject> ok, String what)
            throws IOException {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        RestClient.Reply last = null;
        while (System.nanoTime() < deadline) {
            last = rest.call("GET", path, null, true);
            if (last.status() == 200 && ok.test(last.json())) {
                return last.json();
            }
            WorkerProcess.pause(200);
        }
        throw new AssertionError(what + " within " + SETTLE + "; last answer: " + (last == null ? "none" : last.body()));
    }
}
