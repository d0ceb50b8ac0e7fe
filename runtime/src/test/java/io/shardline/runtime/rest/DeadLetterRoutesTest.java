package io.shardline.runtime.rest;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.config.Password;
import io.shardline.api.handler.ShardId;
import io.shardline.producer.KeyPartitioner;
import io.shardline.runtime.rest.RestHarness.Reply;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /listeners/{name}/dead-letters} over a real Redis: pages newest first, one letter with its fields, redrive of
 * chosen ones to the shard their key routes to (the producer's murmur2 under the stream's topology) or of all to
 * another stream, each removed from the dead-letter stream only once written, audited in the listener's group; a dry
 * run changes nothing; bad requests name what is wrong and redrive nothing; a redrive needs the write token.
 */
@RedisTest
class DeadLetterRoutesTest {

    private static final String TOKEN = "dlq-write-T0ken";
    private static final String READ_TOKEN = "dlq-read-T0ken";
    private static final String DLQ = "orders.dlq";

    private RestHarness rest;

    @BeforeEach
    void start(RedisServer redis) {
        rest = new RestHarness(redis.uri(), "dlq", new RestSettings("127.0.0.1", 0, Optional.of(new Password(TOKEN)),
                Optional.of(new Password(READ_TOKEN)), RestSettings.BODY_LIMIT));
        send(Request.cmd(Command.FLUSHALL));
        Reply created = call(HttpMethod.POST, "/listeners", """
                {"name": "orders", "config": {"handler": "configured", "streams": "orders:4", "group": "orders-g",
                 "handler.config.prefix": "p-"}, "initial_state": "STOPPED"}""");
        assertEquals(201, created.status(), created::toString);
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void deadLettersArePagedNewestFirstAndShownWithTheirFields() {
        String a = letter("orders", 1, "k1", "boom 1");
        String b = letter("orders", 2, null, "boom 2");
        String c = letter("orders", 3, "k3", "boom 3");

        JsonObject first = call(HttpMethod.GET, "/listeners/orders/dead-letters?limit=2").json();
        assertThat(first.getString("stream")).isEqualTo(DLQ);
        assertThat(first.getLong("total")).isEqualTo(3);
        assertThat(ids(first)).containsExactly(c, b);
        assertThat(first.getString("next_before")).isEqualTo(b);
        JsonObject newest = first.getJsonArray("dead_letters").getJsonObject(0);
        assertThat(newest.getString("stream")).isEqualTo("orders");
        assertThat(newest.getInteger("shard")).isEqualTo(3);
        assertThat(newest.getString("key")).isEqualTo("k3");
        assertThat(newest.getString("error")).isEqualTo("boom 3");
        assertThat(newest.getInteger("deliveries")).isEqualTo(6);
        assertThat(newest.containsKey("fields")).as("fields only when one is shown").isFalse();

        JsonObject second = call(HttpMethod.GET, "/listeners/orders/dead-letters?limit=2&before=" + b).json();
        assertThat(ids(second)).containsExactly(a);
        assertThat(second.containsKey("next_before")).isFalse();

        JsonObject shown = call(HttpMethod.GET, "/listeners/orders/dead-letters/" + a).json();
        assertThat(shown.getString("entry_id")).isEqualTo("1-1");
        assertThat(shown.getJsonObject("fields").getMap()).isEqualTo(Map.of("__key", "k1", "n", "1"));

        assertStatus(404, HttpMethod.GET, "/listeners/orders/dead-letters/1-0", null, "no dead letter 1-0");
        assertStatus(400, HttpMethod.GET, "/listeners/orders/dead-letters/nope", null, "not a stream entry id");
        assertStatus(400, HttpMethod.GET, "/listeners/orders/dead-letters?limit=0", null, "limit");
        assertStatus(404, HttpMethod.GET, "/listeners/nobody/dead-letters", null, "nobody");
    }

    @Test
    void chosenDeadLettersGoBackToTheShardTheirKeyRoutesToAndAreRemovedOnceWritten() {
        String keyed = letter("orders", 0, "customer-7", "boom");
        String unkeyed = letter("orders", 2, null, "boom");
        int shard = KeyPartitioner.shardFor("customer-7", 4);

        JsonObject dry = call(HttpMethod.POST, "/listeners/orders/dead-letters/redrive?dry_run=true",
                "{\"ids\": [\"" + keyed + "\", \"" + unkeyed + "\"]}").json();
        assertThat(dry.getBoolean("dry_run")).isTrue();
        assertThat(dry.getJsonArray("redriven").getJsonObject(0).getString("to")).isEqualTo("{orders:" + shard + "}");
        assertThat(dry.getJsonArray("redriven").getJsonObject(1).getString("to")).isEqualTo("{orders:2}");
        assertThat(length(DLQ)).as("a dry run changes nothing").isEqualTo(2);

        Reply readOnly = rest.call(HttpMethod.POST, "/listeners/orders/dead-letters/redrive",
                "{\"ids\": [\"" + keyed + "\"]}", READ_TOKEN);
        assertEquals(403, readOnly.status(), readOnly::toString);
        Reply anonymous = rest.call(HttpMethod.POST, "/listeners/orders/dead-letters/redrive",
                "{\"ids\": [\"" + keyed + "\"]}", null);
        assertEquals(401, anonymous.status(), anonymous::toString);

        JsonObject done = call(HttpMethod.POST, "/listeners/orders/dead-letters/redrive",
                "{\"ids\": [\"" + keyed + "\"]}").json();
        assertThat(done.getBoolean("dry_run")).isFalse();
        JsonObject letter = done.getJsonArray("redriven").getJsonObject(0);
        assertThat(letter.getString("to")).isEqualTo("{orders:" + shard + "}");
        assertThat(letter.getInteger("shard")).isEqualTo(shard);
        List<Map<String, String>> written = entries(new ShardId("orders", shard).key());
        assertThat(written).containsExactly(Map.of("__key", "customer-7", "n", "0"));
        assertThat(entryIds(DLQ)).containsExactly(unkeyed);

        JsonArray audit = call(HttpMethod.GET, "/groups/orders-g/audit").array();
        assertThat(audit.stream().map(o -> ((JsonObject) o).getString("type"))).contains("DEAD_LETTER_REDRIVE");
        assertThat(audit.getJsonObject(audit.size() - 1).getString("reason")).contains(keyed, "{orders:" + shard + "}");
    }

    /**
     * The shard count and routing epoch come from the stream's topology, not the listener's count: after a change to
     * 8 shards a letter goes where a producer writes its key now; a shard at an epoch the topology never reaches
     * refuses every attempt, and the letter stays.
     */
    @Test
    void aRedriveRoutesUnderTheTopologyAndIsRefusedByAShardAtANewerEpoch() {
        String keyed = letter("orders", 0, "customer-7", "boom");
        send(Request.cmd(Command.HSET).arg("{orders:topology}").arg("format").arg("1").arg("shards").arg("8")
                .arg("routing_epoch").arg("2").arg("state").arg("RESHARDING"));
        int shard = KeyPartitioner.shardFor("customer-7", 8);

        JsonObject done = call(HttpMethod.POST, "/listeners/orders/dead-letters/redrive",
                "{\"ids\": [\"" + keyed + "\"]}").json();

        assertThat(done.getJsonArray("redriven").getJsonObject(0).getString("to")).isEqualTo("{orders:" + shard + "}");
        assertThat(entries(new ShardId("orders", shard).key())).containsExactly(Map.of("__key", "customer-7", "n", "0"));
        assertThat(send(Request.cmd(Command.HGET).arg("{orders:" + shard + "}:routing").arg("epoch")).toString())
                .as("the first write of epoch 2 flipped the shard").isEqualTo("2");

        String stuck = letter("orders", 0, "customer-7", "boom");
        send(Request.cmd(Command.HSET).arg("{orders:" + shard + "}:routing").arg("epoch").arg("3"));
        assertStatus(409, HttpMethod.POST, "/listeners/orders/dead-letters/redrive", "{\"ids\": [\"" + stuck + "\"]}",
                "STALE_ROUTING orders shard=" + shard + " epoch=3");
        assertThat(entryIds(DLQ)).containsExactly(stuck);
    }

    @Test
    void allDeadLettersGoToAnotherStreamOldestFirst() {
        String a = letter("orders", 1, "k1", "boom");
        String b = letter("elsewhere", 0, "k2", "boom");

        JsonObject done = call(HttpMethod.POST, "/listeners/orders/dead-letters/redrive",
                "{\"all\": true, \"to_stream\": \"parking\"}").json();
        assertThat(done.getJsonArray("redriven").stream().map(o -> ((JsonObject) o).getString("id"))).containsExactly(a, b);
        assertThat(entries("parking")).containsExactly(Map.of("__key", "k1", "n", "1"), Map.of("__key", "k2", "n", "0"));
        assertThat(length(DLQ)).isZero();
    }

    @Test
    void badRedrivesNameWhatIsWrongAndRedriveNothing() {
        String a = letter("orders", 1, "k1", "boom");
        String foreign = letter("elsewhere", 0, "k2", "boom");
        String path = "/listeners/orders/dead-letters/redrive";
        assertStatus(400, HttpMethod.POST, path, "{\"ids\": [\"" + a + "\"], \"all\": true}", "exactly one of");
        assertStatus(400, HttpMethod.POST, path, "{}", "exactly one of");
        assertStatus(400, HttpMethod.POST, path, "{\"all\": true, \"to\": \"x\"}", "to: unknown field");
        assertStatus(400, HttpMethod.POST, path, "{\"ids\": [7]}", "ids[0]");
        assertStatus(400, HttpMethod.POST, path, "{\"all\": true, \"to_stream\": \"" + DLQ + "\"}", "dead-letter stream itself");
        assertStatus(404, HttpMethod.POST, path, "{\"ids\": [\"" + a + "\", \"9-9\"]}", "[9-9]");
        assertStatus(409, HttpMethod.POST, path, "{\"ids\": [\"" + a + "\", \"" + foreign + "\"]}", "to_stream");
        assertThat(entryIds(DLQ)).containsExactly(a, foreign);
    }

    @Test
    void maxDeliveriesOutsideItsRangeIsRefusedNamingTheKey() {
        Reply refused = call(HttpMethod.PATCH, "/listeners/orders/config", "{\"max.deliveries\": \"0\"}");
        assertEquals(400, refused.status(), refused::toString);
        assertThat(refused.body()).contains("max.deliveries", "0");
        Reply accepted = call(HttpMethod.PATCH, "/listeners/orders/config", "{\"max.deliveries\": \"3\"}");
        assertEquals(200, accepted.status(), accepted::toString);
    }

    private void assertStatus(int status, HttpMethod method, String path, String body, String message) {
        Reply reply = call(method, path, body);
        assertEquals(status, reply.status(), reply::toString);
        assertThat(reply.json().getString("message")).contains(message);
    }

    private Reply call(HttpMethod method, String path) {
        return call(method, path, null);
    }

    private Reply call(HttpMethod method, String path, String body) {
        return rest.call(method, path, body, TOKEN);
    }

    /** Writes a dead letter as the runtime does (its own fields, then {@code __dlq.*}); returns its id. */
    private String letter(String stream, int shard, String key, String error) {
        Request add = Request.cmd(Command.XADD).arg(DLQ).arg("*");
        if (key != null) {
            add.arg("__key").arg(key);
        }
        add.arg("n").arg(shard).arg("__dlq.stream").arg(stream).arg("__dlq.shard").arg(shard).arg("__dlq.id").arg(shard + "-1")
                .arg("__dlq.listener").arg("orders").arg("__dlq.error").arg(error).arg("__dlq.deliveries").arg(6)
                .arg("__dlq.attempts").arg(0).arg("__dlq.failed.at.ms").arg(1_764_547_200_000L);
        return send(add).toString();
    }

    private static List<String> ids(JsonObject page) {
        return page.getJsonArray("dead_letters").stream().map(o -> ((JsonObject) o).getString("id")).toList();
    }

    private long length(String key) {
        return send(Request.cmd(Command.XLEN).arg(key)).toLong();
    }

    private List<String> entryIds(String key) {
        List<String> out = new ArrayList<>();
        send(Request.cmd(Command.XRANGE).arg(key).arg("-").arg("+")).forEach(e -> out.add(e.get(0).toString()));
        return out;
    }

    private List<Map<String, String>> entries(String key) {
        List<Map<String, String>> out = new ArrayList<>();
        send(Request.cmd(Command.XRANGE).arg(key).arg("-").arg("+")).forEach(e -> {
            Map<String, String> fields = new LinkedHashMap<>();
            for (int i = 0; i + 1 < e.get(1).size(); i += 2) {
                fields.put(e.get(1).get(i).toString(), e.get(1).get(i + 1).toString());
            }
            out.add(fields);
        });
        return out;
    }

    private Response send(Request request) {
        return result(rest.redis.send(request), RestHarness.WAIT);
    }
}
