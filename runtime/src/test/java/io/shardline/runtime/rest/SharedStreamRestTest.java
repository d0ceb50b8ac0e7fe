package io.shardline.runtime.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.runtime.rest.RestHarness.Reply;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.http.HttpMethod;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Listeners that share a stream over REST (docs/operations.md, "Retention"): {@code ack.mode=ack-delete} beside
 * another group is refused whichever listener comes second, on create, replace and patch, naming the key, the
 * stream and the other listener and group; two different retentions of one stream are refused; one group's
 * listeners, and the same retention declared twice, are accepted. Over a real Redis.
 */
@RedisTest
class SharedStreamRestTest {

    private static final AtomicInteger CLUSTERS = new AtomicInteger();

    private RestHarness rest;

    @BeforeEach
    void start(RedisServer redis) {
        rest = new RestHarness(redis.uri(), "shared" + CLUSTERS.incrementAndGet(), RestSettings.loopback(0));
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void aSecondGroupOnAnAckDeleteStreamIsRefused() {
        assertEquals(201, create("cleaner", "\"ack.mode\": \"ack-delete\"").status());

        Reply refused = create("billing", "\"group\": \"billing\"");

        assertConflict(refused, "config.streams", "stream 'orders' is consumed with ack.mode=ack-delete by listener "
                + "'cleaner' (group 'cleaner')");
        assertEquals(201, create("helper", "\"group\": \"cleaner\"").status(), "the same group may share it");
        assertEquals(List.of("cleaner", "helper"), rest.call(HttpMethod.GET, "/listeners").array().getList());
    }

    @Test
    void ackDeleteOnAStreamAnotherGroupConsumesIsRefusedOnCreateReplaceAndPatch() {
        assertEquals(201, create("billing", "\"ack.mode\": \"ack\"").status());
        assertEquals(201, create("audit", "\"streams\": \"payments:1\"").status());

        assertConflict(create("cleaner", "\"ack.mode\": \"ack-delete\""), "config.ack.mode = 'ack-delete'",
                "stream 'orders' is also consumed by group 'billing' (listener 'billing')");
        assertConflict(rest.call(HttpMethod.PATCH, "/listeners/audit/config",
                        "{\"streams\": \"orders:2\", \"ack.mode\": \"ack-delete\"}"), "config.ack.mode = 'ack-delete'",
                "group 'billing'");
        assertConflict(rest.call(HttpMethod.PUT, "/listeners/audit/config", "{\"handler\": \"configured\", "
                + "\"handler.config.prefix\": \"p-\", \"streams\": \"orders:2\", \"ack.mode\": \"ack-delete\"}"), "config.ack.mode", "group 'billing'");
        assertEquals("payments:1", rest.call(HttpMethod.GET, "/listeners/audit/config").json().getString("streams"),
                "the refused changes were not stored");
    }

    @Test
    void twoDifferentRetentionsOfOneStreamAreRefusedTheSameOneIsNot() {
        assertEquals(201, create("a", "\"retention.max.length\": \"1000\"").status());

        assertConflict(create("b", "\"retention.max.length\": \"50\""), "config.retention.max.length = '50'",
                "stream 'orders' has retention retention.max.length=1000, retention.max.age.ms=0 declared by "
                        + "listener 'a'");
        assertEquals(201, create("c", "\"retention.max.length\": \"1000\"").status());
        assertEquals(201, create("d", "\"start.from\": \"earliest\"").status(), "declaring none is no conflict");
    }

    private Reply create(String name, String extra) {
        String streams = extra.contains("\"streams\"") ? "" : "\"streams\": \"orders:2\", ";
        return rest.call(HttpMethod.POST, "/listeners", "{\"name\": \"" + name + "\", \"config\": {\"handler\": "
                + "\"configured\", \"handler.config.prefix\": \"p-\", " + streams + extra + "}}");
    }

    private static void assertConflict(Reply reply, String key, String messagePart) {
        assertEquals(409, reply.status(), reply::toString);
        assertThat(reply.json().getString("message")).contains(key).contains(messagePart);
    }
}
