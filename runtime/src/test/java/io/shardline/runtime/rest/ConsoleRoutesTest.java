package io.shardline.runtime.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.config.Password;
import io.shardline.runtime.rest.RestHarness.Reply;
import io.shardline.runtime.rest.ui.ConsoleRoutes;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.http.HttpMethod;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /ui} ({@link ConsoleRoutes}): the console's files and its chart library are served from the jar
 * without a token, under a same-origin Content-Security-Policy, while every figure they show still needs the
 * token. (The browser test in integration-tests drives the page itself.)
 */
@RedisTest
class ConsoleRoutesTest {

    private static final String TOKEN = "console-T0ken-42";

    private RestHarness rest;

    @BeforeEach
    void start(RedisServer redis) {
        rest = new RestHarness(redis.uri(), "console", new RestSettings("127.0.0.1", 0,
                Optional.of(new Password(TOKEN)), Optional.empty(), RestSettings.BODY_LIMIT));
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void consoleFilesLoadWithoutATokenAndDataDoesNot() {
        Reply redirect = rest.call(HttpMethod.GET, "/ui");
        assertEquals(302, redirect.status(), redirect.toString());
        assertEquals("/ui/", redirect.header("Location"));

        Reply page = rest.call(HttpMethod.GET, "/ui/");
        assertEquals(200, page.status(), page.toString());
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.body()).contains("<title>Shardline console</title>", "id=\"signin-form\"");
        assertEquals(ConsoleRoutes.CONTENT_SECURITY_POLICY, page.header("Content-Security-Policy"));
        assertEquals("DENY", page.header("X-Frame-Options"));
        assertEquals("nosniff", page.header("X-Content-Type-Options"));
        // The page refers only to files of this worker: no other origin, no inline script.
        assertThat(page.body()).doesNotContain("http://", "https://", "<script>");

        for (String file : List.of("api.js", "console.js", "views.js", "listener.js", "charts.js", "console.css",
                "lib/uplot/uPlot.iife.min.js", "lib/uplot/uPlot.min.css")) {
            Reply reply = rest.call(HttpMethod.GET, "/ui/" + file);
            assertEquals(200, reply.status(), file + ": " + reply.status());
            assertThat(reply.body()).as(file).isNotBlank();
        }

        assertEquals(401, rest.call(HttpMethod.GET, "/ui/no-such-file.js").status());
        assertEquals(401, rest.call(HttpMethod.GET, "/listeners").status());
        assertEquals(401, rest.call(HttpMethod.GET, "/workers", null, "wrong").status());
        assertEquals(200, rest.call(HttpMethod.GET, "/workers", null, TOKEN).status());
        assertEquals(404, rest.call(HttpMethod.GET, "/ui/no-such-file.js", null, TOKEN).status());
    }
}
