package io.shardline.runtime.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.shardline.api.config.ConfigException;
import io.shardline.api.config.Password;
import io.shardline.api.config.Placeholders;
import io.shardline.api.config.RawConfig;
import io.shardline.runtime.config.WorkerConfig;
import io.shardline.runtime.rest.RestHarness.Reply;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.http.HttpMethod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Bearer tokens: 401 without, 403 for writes with the read-only token, and no secret in any response or log. */
@RedisTest
class RestAuthTest {

    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    private static final String TOKEN = "write-T0ken-5ecret-4711";
    private static final String READ_TOKEN = "read-T0ken-5ecret-0815";
    private static final String ORDERS = """
            {"name": "orders", "config": {"handler": "configured", "streams": "orders:2",
             "handler.config.prefix": "p-"}}""";

    private RestHarness rest;
    private String redisUri;
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    @BeforeEach
    void start(RedisServer redis) {
        redisUri = redis.uri();
        logs.start();
        root.addAppender(logs);
        rest = new RestHarness(redis.uri(), "auth" + CLUSTERS.incrementAndGet(), new RestSettings("127.0.0.1", 0,
                Optional.of(new Password(TOKEN)), Optional.of(new Password(READ_TOKEN)), RestSettings.BODY_LIMIT));
    }

    @AfterEach
    void stop() {
        rest.close();
        root.detachAppender(logs);
    }

    @Test
    void everyMutatingRouteAnswers401WithoutTheToken() {
        List<String[]> writes = List.of(
                new String[] {"POST", "/listeners", ORDERS},
                new String[] {"PUT", "/listeners/orders/config", "{}"},
                new String[] {"DELETE", "/listeners/orders", null},
                new String[] {"PUT", "/listeners/orders/pause", null},
                new String[] {"PUT", "/listeners/orders/resume", null},
                new String[] {"PUT", "/listeners/orders/stop", null},
                new String[] {"POST", "/listeners/orders/restart", null},
                new String[] {"PUT", "/listeners/orders/shards/orders/0/pause", null},
                new String[] {"PUT", "/listeners/orders/shards/orders/0/resume", null},
                new String[] {"PUT", "/plugins/configured/config/validate", "{}"});
        for (String[] w : writes) {
            for (String token : new String[] {null, "wrong", TOKEN + "x"}) {
                Reply reply = rest.call(HttpMethod.valueOf(w[0]), w[1], w[2], token);
                assertEquals(401, reply.status(), w[0] + " " + w[1] + " with " + token + ": " + reply);
                assertEquals(401, reply.json().getInteger("error_code"));
                assertEquals("Bearer realm=\"shardline\"", reply.header("WWW-Authenticate"));
            }
            Reply readOnly = rest.call(HttpMethod.valueOf(w[0]), w[1], w[2], READ_TOKEN);
            assertEquals(403, readOnly.status(), w[0] + " " + w[1] + " with the read token: " + readOnly);
        }
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", ORDERS, TOKEN).status());
        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/orders/pause", null, TOKEN).status());
    }

    @Test
    void readsNeedTheReadOrTheWriteTokenAndHealthIsOpen() {
        assertEquals(401, rest.call(HttpMethod.GET, "/listeners").status());
        assertEquals(401, rest.call(HttpMethod.GET, "/metrics").status());
        assertEquals(200, rest.call(HttpMethod.GET, "/listeners", null, READ_TOKEN).status());
        assertEquals(200, rest.call(HttpMethod.GET, "/listeners", null, TOKEN).status());
        assertEquals(200, rest.call(HttpMethod.GET, "/metrics", null, READ_TOKEN).status());
        assertEquals(200, rest.call(HttpMethod.GET, "/health").status());
    }

    @Test
    void secretsNeverAppearInResponsesOrLogs() {
        String secret = "hunter2-very-secret";
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", ORDERS, TOKEN).status());
        rest.call(HttpMethod.PUT, "/plugins/configured/config/validate",
                "{\"streams\": \"o:1\", \"handler.config.password\": \"" + secret + "\"}", TOKEN);
        rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"leak\", \"config\": {\"handler\": \"configured\", "
                + "\"streams\": \"o:1\", \"handler.config.prefix\": \"x\", \"handler.config.api.token\": \"" + secret
                + "\"}}", TOKEN);
        for (String path : List.of("/", "/workers", "/plugins", "/listeners", "/listeners?expand=status",
                "/listeners/orders", "/listeners/orders/status", "/metrics", "/metrics?format=json", "/health")) {
            assertThat(rest.call(HttpMethod.GET, path, null, READ_TOKEN).status()).isLessThan(500);
        }
        rest.call(HttpMethod.GET, "/listeners", null, "guess-" + TOKEN);
        assertThat(rest.bodies).hasSizeGreaterThan(10);
        for (String body : rest.bodies) {
            assertThat(body).doesNotContain(TOKEN).doesNotContain(READ_TOKEN).doesNotContain(secret);
        }
        assertThat(logs.list).isNotEmpty();
        for (ILoggingEvent event : logs.list) {
            String line = event.getFormattedMessage() + (event.getThrowableProxy() == null ? ""
                    : event.getThrowableProxy().getMessage());
            assertThat(line).doesNotContain(TOKEN).doesNotContain(READ_TOKEN).doesNotContain(secret);
        }
    }

    @Test
    void nonLoopbackWithoutTokenRefusesToStart() {
        assertThatThrownBy(() -> new RestSettings("0.0.0.0", 8083, Optional.empty(), Optional.empty(),
                RestSettings.BODY_LIMIT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rest.bind = 0.0.0.0 is not a loopback address: set rest.auth.token too, or bind to 127.0.0.1");
        assertThatThrownBy(() -> new RestSettings("127.0.0.1", 8083, Optional.empty(),
                Optional.of(new Password("r")), RestSettings.BODY_LIMIT))
                .hasMessageContaining("rest.auth.read.token requires rest.auth.token");
        RestSettings open = new RestSettings("10.1.2.3", 8083, Optional.of(new Password(TOKEN)), Optional.empty(),
                RestSettings.BODY_LIMIT);
        assertThat(open.toString()).doesNotContain(TOKEN).contains("[hidden]");
    }

    @Test
    void workerConfigDefinesTheReadTokenAndItsRule() {
        assertThatThrownBy(() -> WorkerConfig.of(RawConfig.of(Map.of("rest.auth.read.token", READ_TOKEN)),
                Placeholders.system()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("rest.auth.read.token")
                .hasMessageContaining("requires rest.auth.token")
                .message().doesNotContain(READ_TOKEN);
        WorkerConfig config = WorkerConfig.of(RawConfig.of(Map.of("rest.bind", "0.0.0.0", "rest.auth.token", TOKEN,
                "rest.auth.read.token", READ_TOKEN)), Placeholders.system());
        RestSettings settings = RestSettings.of(config);
        assertEquals(TOKEN, settings.token().orElseThrow().value());
        assertEquals(READ_TOKEN, settings.readToken().orElseThrow().value());
        assertEquals("127.0.0.1", RestSettings.of(WorkerConfig.of(RawConfig.of(Map.of("rest.auth.loopback.open",
                "true")), Placeholders.system())).bind());
        assertThatThrownBy(() -> WorkerConfig.of(RawConfig.of(Map.of("rest.auth.loopback.open", "true", "rest.bind",
                "0.0.0.0", "rest.auth.token", TOKEN)), Placeholders.system()))
                .hasMessageContaining("rest.auth.loopback.open").hasMessageContaining("requires a loopback rest.bind");
    }

    @Test
    void withoutAConfiguredTokenOneIsGeneratedIntoAFileOnlyTheUserCanRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("state/w1.token");
        WorkerConfig config = WorkerConfig.of(RawConfig.of(Map.of("worker.id", "w1", "log.dir", dir.resolve("state")
                .toString(), "rest.port", "0")), Placeholders.system());
        assertEquals(file, config.restAuthTokenFile());
        RestSettings first = RestSettings.of(config);
        assertThat(Files.getPosixFilePermissions(file)).containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ,
                PosixFilePermission.OWNER_WRITE);
        String token = first.token().orElseThrow().value();
        assertThat(token).hasSizeGreaterThanOrEqualTo(43);
        assertEquals(token + "\n", Files.readString(file));
        assertThat(first.toString()).doesNotContain(token);
        assertThat(first.authDescription()).contains(file.toString()).doesNotContain(token);
        assertEquals(token, RestSettings.of(config).token().orElseThrow().value(), "reused on the next start");

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> RestSettings.of(config)).isInstanceOf(IllegalStateException.class)
                .hasMessage("REST token file " + file + " may be read by other users (mode rw-r--r--): chmod 600 "
                        + file + ", or delete it to have a new token generated");
        Files.delete(file);
        assertThat(RestSettings.of(config).token().orElseThrow().value()).isNotEqualTo(token);

        // Served: 401 without it, 200 with what the file holds.
        rest.close();
        rest = new RestHarness(redisUri, "gen" + CLUSTERS.incrementAndGet(), RestSettings.of(config));
        assertEquals(401, rest.call(HttpMethod.GET, "/listeners").status());
        assertEquals(200, rest.call(HttpMethod.GET, "/listeners", null, Files.readString(file).trim()).status());
        assertEquals(200, rest.call(HttpMethod.GET, "/health").status());
    }
}
