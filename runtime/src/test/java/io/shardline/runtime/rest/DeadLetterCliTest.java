package io.shardline.runtime.rest;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.config.Password;
import io.shardline.producer.KeyPartitioner;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/shardline dlq list / show / redrive} run in process against a REST server over a real Redis (the same
 * commands on a worker JVM: {@code PoisonRecordIntegrationTest}): tables and {@code --json}; a redrive is a dry run
 * until {@code --execute}; exit codes 4 (unknown listener or id), 5 (a letter from a stream the listener does not
 * consume), 2 (neither {@code --ids} nor {@code --all}) and 6 (no token).
 */
@RedisTest
class DeadLetterCliTest {

    private static final String TOKEN = "dlq-cli-T0ken";

    private RestHarness rest;
    private CliRunner cli;

    @BeforeEach
    void start(RedisServer redis) {
        rest = RestHarness.onEmptyRedis(redis.uri(), "dlqcli", new RestSettings("127.0.0.1", 0,
                Optional.of(new Password(TOKEN)), Optional.empty(), RestSettings.BODY_LIMIT));
        cli = new CliRunner(rest, TOKEN);
        RestHarness.Reply created = rest.call(HttpMethod.POST, "/listeners", """
                {"name": "orders", "config": {"handler": "configured", "streams": "orders:3",
                 "handler.config.prefix": "p-"}, "initial_state": "STOPPED"}""", TOKEN);
        assertEquals(201, created.status(), created::toString);
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void dlqCommandsListShowAndRedrive() {
        String id = letter("orders", "customer-1", "java.lang.IllegalStateException: boom");
        String foreign = letter("gone", "customer-2", "boom");

        CliRunner.Run list = cli.run("dlq", "list", "orders");
        assertThat(list.out()).contains("dead-letter stream orders.dlq: 2 dead letter(s)", "DELIVERIES", id,
                "orders:1", "customer-1", "IllegalStateException: boom");
        JsonObject json = new JsonObject(cli.run("dlq", "list", "orders", "--limit", "1", "--json").out());
        assertThat(json.getJsonArray("dead_letters")).hasSize(1);
        assertThat(json.getString("next_before")).isEqualTo(foreign);
        assertThat(cli.run("dlq", "show", "orders", id).out()).contains("field n", "deliveries", "6", "customer-1");

        int shard = KeyPartitioner.shardFor("customer-1", 3);
        CliRunner.Run dry = cli.run("dlq", "redrive", "orders", "--ids", id);
        assertThat(dry.out()).contains("{orders:" + shard + "}", "Dry run");
        assertThat(length("orders.dlq")).isEqualTo(2);
        CliRunner.Run executed = cli.run("dlq", "redrive", "orders", "--ids", id, "--execute");
        assertThat(executed.out()).contains("{orders:" + shard + "}", "1 dead letter(s) written back");
        assertThat(length("{orders:" + shard + "}")).isEqualTo(1);
        assertThat(length("orders.dlq")).isEqualTo(1);

        CliRunner.Run unknown = cli.runExpecting(4, "dlq", "show", "orders", "1-1");
        assertThat(unknown.err()).contains("no dead letter 1-1");
        cli.runExpecting(4, "dlq", "list", "nobody");
        CliRunner.Run foreignStream = cli.runExpecting(5, "dlq", "redrive", "orders", "--all", "--execute");
        assertThat(foreignStream.err()).contains("'gone'", "--to-stream");
        cli.runExpecting(2, "dlq", "redrive", "orders");
        CliRunner.Run moved = cli.run("dlq", "redrive", "orders", "--all", "--to-stream", "parking", "--execute");
        assertThat(moved.out()).contains("parking");
        assertThat(length("orders.dlq")).isZero();
        assertEquals(6, cli.withoutToken("dlq", "list", "orders").exit());
    }

    private String letter(String stream, String key, String error) {
        return send(Request.cmd(Command.XADD).arg("orders.dlq").arg("*").arg("__key").arg(key).arg("n").arg(1)
                .arg("__dlq.stream").arg(stream).arg("__dlq.shard").arg(1).arg("__dlq.id").arg("1-1")
                .arg("__dlq.error").arg(error).arg("__dlq.deliveries").arg(6).arg("__dlq.attempts").arg(0)).toString();
    }

    private long length(String key) {
        return send(Request.cmd(Command.XLEN).arg(key)).toLong();
    }

    private Response send(Request request) {
        return result(rest.redis.send(request), RestHarness.WAIT);
    }
}
