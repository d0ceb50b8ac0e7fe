package io.shardline.runtime.rest;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.config.Password;
import io.shardline.api.config.Placeholders;
import io.shardline.api.config.RawConfig;
import io.shardline.runtime.control.ControlKeys;
import io.shardline.runtime.control.RestConfigPolicy;
import io.shardline.runtime.redis.RedisReplies;
import io.shardline.runtime.rest.RestHarness.Reply;
import io.shardline.runtime.config.WorkerConfig;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REST edge against a hostile caller: web pages (cross-origin, form content types, DNS rebinding),
 * placeholders that would read the worker's environment or files, secrets sent in clear, and malformed JSON.
 */
@RedisTest
class RestSecurityTest {

    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    private static final String TOKEN = "sec-T0ken-4242";
    private static final String ALLOWED_ENV = "SHARDLINE_TEST_ALLOWED";

    @TempDir
    Path tmp;
    private Path allowedDir;
    private RestHarness rest;
    private String cluster;

    @BeforeEach
    void start(RedisServer redis) throws IOException {
        allowedDir = Files.createDirectories(tmp.resolve("allowed"));
        cluster = "sec" + CLUSTERS.incrementAndGet();
        rest = new RestHarness(redis.uri(), cluster, new RestSettings("127.0.0.1", 0, Optional.of(new Password(TOKEN)),
                Optional.empty(), RestSettings.BODY_LIMIT), new RestConfigPolicy(List.of(ALLOWED_ENV), List.of(allowedDir)));
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void aWebPageCannotCreateAListener() {
        String form = listener("evil", "p-");
        Reply crossOrigin = rest.call(HttpMethod.POST, "/listeners", form, TOKEN,
                Map.of("Content-Type", "text/plain", "Origin", "http://evil.example"));
        assertError(crossOrigin, 403, "cross-origin requests are refused (Origin: http://evil.example)");
        assertError(rest.call(HttpMethod.POST, "/listeners", form, TOKEN, Map.of("Content-Type", "application/json",
                "Origin", "null")), 403, "cross-origin");
        assertError(rest.call(HttpMethod.POST, "/listeners", form, TOKEN, Map.of("Content-Type", "application/json",
                "Sec-Fetch-Site", "same-site")), 403, "cross-site requests are refused (Sec-Fetch-Site: same-site)");
        for (String type : List.of("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x")) {
            assertError(rest.call(HttpMethod.POST, "/listeners", form, TOKEN, Map.of("Content-Type", type)), 415,
                    "Content-Type must be application/json (got '" + type + "')");
        }
        assertError(rest.call(HttpMethod.POST, "/listeners/evil/restart", null, TOKEN, Map.of("Content-Type",
                "text/plain")), 415, "Content-Type must be application/json");
        assertError(rest.raw("POST /listeners HTTP/1.1\r\nHost: evil.example:" + rest.port()
                + "\r\nAuthorization: Bearer " + TOKEN + "\r\nContent-Length: 0"), 403, "Host 'evil.example' is not a "
                + "loopback name");
        assertEquals(404, rest.call(HttpMethod.GET, "/listeners/evil", null, TOKEN).status());

        // The same request from the API's own origin, as JSON, with the token.
        String self = "http://localhost:" + rest.port();
        Reply ok = rest.call(HttpMethod.POST, "/listeners", form, TOKEN, Map.of("Content-Type",
                "application/json; charset=utf-8", "Origin", self, "Sec-Fetch-Site", "same-origin"));
        assertEquals(201, ok.status(), ok::toString);
        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/evil/pause", null, TOKEN, Map.of()).status());
        assertEquals(200, rest.raw("GET /health HTTP/1.1\r\nHost: localhost:" + rest.port()).status());
    }

    @Test
    void placeholdersOutsideTheAllowListAreRefusedAtCreateAndUpdate() throws IOException {
        Path outside = Files.writeString(tmp.resolve("redis.properties"), "redisfull=redis://:hunter2@h:6379\n");
        Path inside = Files.writeString(allowedDir.resolve("app.properties"), "k=allowed-value\n");
        Path link = Files.createSymbolicLink(allowedDir.resolve("escape.properties"), outside);
        // The exfiltration URL of the security review, in a configuration key the handler sends somewhere.
        String exfil = "http://127.0.0.1:19999/t=${env:SL_TOKEN}/s=${file:" + outside + ":redisfull}";
        Reply refused = rest.call(HttpMethod.POST, "/listeners", listener("leak", exfil), TOKEN);
        assertError(refused, 400, "placeholder ${env:SL_TOKEN} is not allowed in a configuration sent over REST: add "
                + "SL_TOKEN to rest.config.allowed.env in the worker's file to allow it");
        assertThat(refused.json().getString("message")).contains("placeholder ${file:" + outside + ":redisfull} is not "
                + "allowed", "add its directory " + tmp + " to rest.config.allowed.dirs");
        assertError(rest.call(HttpMethod.POST, "/listeners", listener("rel", "${file:x.properties:k}"), TOKEN), 400,
                "the path must be absolute");
        assertError(rest.call(HttpMethod.POST, "/listeners", listener("link", "${file:" + link + ":redisfull}"),
                TOKEN), 400, "rest.config.allowed.dirs");
        assertError(rest.call(HttpMethod.POST, "/listeners", listener("dots", "${file:" + allowedDir
                + "/../redis.properties:redisfull}"), TOKEN), 400, "rest.config.allowed.dirs");
        assertError(rest.call(HttpMethod.POST, "/listeners", listener("other", "${vault:x}"), TOKEN), 400,
                "unknown placeholder ${vault:...}");
        Reply validate = rest.call(HttpMethod.PUT, "/plugins/configured/config/validate",
                "{\"streams\": \"o:1\", \"handler.config.prefix\": \"${env:HOME}\"}", TOKEN);
        assertEquals(200, validate.status(), validate::toString);
        assertThat(validate.json().getJsonArray("errors").encode()).contains("${env:HOME}", "rest.config.allowed.env");

        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", listener("ok",
                "${env:" + ALLOWED_ENV + "}-${file:" + inside + ":k}"), TOKEN).status());
        assertError(rest.call(HttpMethod.PUT, "/listeners/ok/config", "{\"handler\": \"configured\", \"streams\": "
                + "\"orders:2\", \"handler.config.prefix\": \"${env:SL_TOKEN}\"}", TOKEN), 400, "SL_TOKEN");
        Map<String, String> stored = storedConfigs();
        assertThat(stored).containsOnlyKeys("ok");
        assertThat(stored.get("ok")).contains("${env:" + ALLOWED_ENV + "}").doesNotContain("SL_TOKEN");
    }

    @Test
    void passwordsAreStoredOnlyAsAllowedPlaceholders() throws IOException {
        String body = "{\"name\": \"pw\", \"config\": {\"handler\": \"configured\", \"streams\": \"orders:2\", "
                + "\"handler.config.prefix\": \"p\", \"handler.config.password\": \"hunter2\"}}";
        Reply refused = rest.call(HttpMethod.POST, "/listeners", body, TOKEN);
        assertError(refused, 400, "config.handler.config.password = '[hidden]': a secret is not stored in Redis in "
                + "clear: write it as ${env:NAME} or ${file:/dir/file.properties:key}");
        assertThat(refused.body()).doesNotContain("hunter2");
        Path secrets = Files.writeString(allowedDir.resolve("secrets.properties"), "pw=hunter2\n");
        Reply created = rest.call(HttpMethod.POST, "/listeners", body.replace("hunter2", "${file:" + secrets + ":pw}"),
                TOKEN);
        assertEquals(201, created.status(), created::toString);
        assertThat(created.json().getJsonObject("config").getString("handler.config.password")).isEqualTo("[hidden]");
        assertThat(storedConfigs().toString()).doesNotContain("hunter2");
    }

    /** Set when {@link Tripwire} is initialized. */
    private static final java.util.concurrent.atomic.AtomicBoolean TRIPPED = new java.util.concurrent.atomic.AtomicBoolean();

    /** A class on the class path that is not a plugin; initializing it sets {@link #TRIPPED}. */
    static final class Tripwire {
        static {
            TRIPPED.set(true);
        }
    }

    @Test
    void handlersAreChosenOnlyAmongDiscoveredPlugins() {
        String name = Tripwire.class.getName();
        for (String handler : List.of(name, "javax.swing.JFrame", "java.lang.Runtime")) {
            Reply refused = rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"x\", \"config\": {\"handler\": \""
                    + handler + "\", \"streams\": \"orders:1\"}}", TOKEN);
            assertError(refused, 404, "no handler plugin '" + handler + "'; installed handlers: ");
            assertError(rest.call(HttpMethod.PUT, "/plugins/" + handler + "/config/validate", "{}", TOKEN), 404,
                    "no handler plugin");
        }
        java.util.List<io.shardline.api.config.ConfigError> errors = new java.util.ArrayList<>();
        assertThat(io.shardline.runtime.control.ListenerLoader.fromStored("x", Map.of("handler", name, "streams",
                "orders:1"), rest.plugins, Placeholders.system(), errors)).isEmpty();
        assertThat(errors.toString()).contains("handler").contains(name);
        assertThat(TRIPPED).as("the named class was never initialized").isFalse();
    }

    @Test
    void theDeadLetterStreamCannotBeOneOfShardlinesOwnKeys() {
        for (String key : List.of("{orders:0}", "{payments:3}:owner:payments", "{shardline:" + cluster + "}:listener-configs")) {
            Reply refused = rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"d\", \"config\": {\"handler\": "
                    + "\"configured\", \"streams\": \"orders:2\", \"handler.config.prefix\": \"p\", "
                    + "\"dead.letter.stream\": \"" + key + "\"}}", TOKEN);
            assertError(refused, 400, "config.dead.letter.stream = '" + key + "': ");
            assertThat(refused.json().getString("message")).containsAnyOf("is a shard key", "metadata prefix");
        }
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"d\", \"config\": {\"handler\": "
                + "\"configured\", \"streams\": \"orders:2\", \"handler.config.prefix\": \"p\", "
                + "\"dead.letter.stream\": \"{orders}.dlq\"}}", TOKEN).status());
    }

    @Test
    void jsonBodiesAreStrictAndErrorsCarryNoParserInternals() {
        assertError(rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"a\", \"name\": \"b\", \"config\": {}}",
                TOKEN), 400, "request body: key 'name' given twice (line 1, column ");
        assertError(rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"a\", \"config\": {\"streams\": \"x:1\", "
                + "\"streams\": \"y:1\"}}", TOKEN), 400, "key 'streams' given twice");
        assertError(rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"a\", \"configs\": {}}", TOKEN), 400,
                "configs: unknown field; the known fields are [config, initial_state, name]");
        assertError(rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"a\",\n \"config\": {]}", TOKEN), 400,
                "request body: not valid JSON (line 2, column ");
        assertError(rest.call(HttpMethod.POST, "/listeners", "[1, 2]", TOKEN), 400, "request body: must be a JSON "
                + "object, got array");
        assertError(rest.call(HttpMethod.POST, "/listeners", "{} {}", TOKEN), 400, "text after the JSON value");
        assertError(rest.call(HttpMethod.PUT, "/listeners/a/config", "{\"a\": 1, \"a\": 2}", TOKEN), 400,
                "key 'a' given twice");
        assertError(rest.raw("GET /listeners/%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN), 400,
                "");
        for (String body : rest.bodies) {
            assertThat(body).doesNotContain("jackson").doesNotContain("Jackson").doesNotContain("Exception")
                    .doesNotContain("Source: ").doesNotContain("\tat ");
        }
    }

    @Test
    void httpsWithAPemKeyAndCertificate(RedisServer redis) throws Exception {
        Path key = tmp.resolve("rest-key.pem");
        Path cert = tmp.resolve("rest-cert.pem");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", key.toString(), "-out", cert.toString()).redirectErrorStream(true).start();
        assertEquals(0, openssl.waitFor(), () -> new String(readAll(openssl)));
        WorkerConfig config = WorkerConfig.of(RawConfig.of(Map.of("rest.auth.token", TOKEN, "rest.tls.key", key.toString(),
                "rest.tls.cert", cert.toString(), "rest.port", "0")), Placeholders.system());
        try (RestHarness https = new RestHarness(redis.uri(), cluster + "-tls", RestSettings.of(config))) {
            Reply root = https.call(HttpMethod.GET, "/", null, TOKEN);
            assertEquals(200, root.status(), root::toString);
            String self = "https://localhost:" + https.port();
            assertEquals(201, https.call(HttpMethod.POST, "/listeners", listener("tls", "p"), TOKEN,
                    Map.of("Content-Type", "application/json", "Origin", self)).status());
            assertError(https.call(HttpMethod.POST, "/listeners", listener("tls2", "p"), TOKEN,
                    Map.of("Content-Type", "application/json", "Origin", "http://localhost:" + https.port())), 403,
                    "cross-origin");
            // Plain HTTP on the HTTPS port gets no API answer.
            assertThat(https.raw("GET / HTTP/1.1\r\nHost: localhost").status()).isNotEqualTo(200);
        }
        assertThatThrownBy(() -> WorkerConfig.of(RawConfig.of(Map.of("rest.tls.key", key.toString())),
                Placeholders.system())).hasMessageContaining("rest.tls.key and rest.tls.cert go together");
    }

    private static byte[] readAll(Process process) {
        try {
            return process.getInputStream().readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }

    private static String listener(String name, String prefix) {
        return "{\"name\": \"" + name + "\", \"config\": {\"handler\": \"configured\", \"streams\": \"orders:2\", "
                + "\"handler.config.prefix\": \"" + prefix + "\"}}";
    }

    private Map<String, String> storedConfigs() {
        Response all = result(rest.redis.send(Request.cmd(Command.HGETALL).arg(new ControlKeys(cluster)
                .listenerConfigs())), RestHarness.WAIT);
        return RedisReplies.toStringMap(all);
    }

    private static void assertError(Reply reply, int status, String messagePart) {
        assertEquals(status, reply.status(), reply::toString);
        assertThat(reply.header("Content-Type")).as(reply::toString).isEqualTo("application/json");
        assertEquals(status, reply.json().getInteger("error_code"), reply::toString);
        assertThat(reply.json().getString("message")).contains(messagePart);
    }
}
