package io.shardline.runtime.rest;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.config.Password;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/shardline streams reshard S --shards M | rollback S | describe S} run in process against a REST server
 * over a real Redis: a change starts (exit 0, naming both counts and the routing epoch), a second one is refused
 * (exit 5), {@code describe} shows the layouts and the leader's progress (what each group waits for, what blocks),
 * a rollback starts and a second rollback is refused; a bad count is exit 1 (400, the message says why) and no
 * token exit 6.
 */
@RedisTest
class StreamsReshardCliTest {

    private static final String TOKEN = "streams-cli-T0ken";

    private RestHarness rest;
    private CliRunner cli;

    @BeforeEach
    void start(RedisServer redis) {
        rest = RestHarness.onEmptyRedis(redis.uri(), "streamscli", new RestSettings("127.0.0.1", 0,
                Optional.of(new Password(TOKEN)), Optional.empty(), RestSettings.BODY_LIMIT));
        cli = new CliRunner(rest, TOKEN);
        cli.runExpecting(0, "streams", "create", "orders", "--shards", "4");
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void reshardDescribeAndRollbackAsAnOperatorRunsThem() {
        CliRunner.Run started = cli.runExpecting(0, "streams", "reshard", "orders", "--shards", "8");
        assertThat(started.out()).contains("changing from 4 to 8 shard(s) under routing epoch 2",
                "streams describe orders");
        CliRunner.Run again = cli.runExpecting(5, "streams", "reshard", "orders", "--shards", "16");
        assertThat(again.err()).contains("already changing from 4 to 8");

        result(rest.redis.send(Request.cmd(Command.HSET).arg("{orders:topology}").arg("progress").arg("""
                {"groups":{"billing":{"passed":6,"of":8,"members":0,"waiting":[{"shard":5,"epoch":2,"parents":[1]}],
                "retiring_not_drained":[]}},"blocked":["group 'billing' has no live member"]}""")), RestHarness.WAIT);
        CliRunner.Run described = cli.runExpecting(0, "streams", "describe", "orders");
        assertThat(described.out()).contains("RESHARDING", "Change from 4 shard(s)", "{\"1\":4,\"2\":8}",
                "billing", "6/8", "5<-1", "Blocked: group 'billing' has no live member");

        CliRunner.Run back = cli.runExpecting(0, "streams", "rollback", "orders");
        assertThat(back.out()).contains("rolling back to 4 shard(s) under routing epoch 3");
        cli.runExpecting(5, "streams", "rollback", "orders");
        cli.runExpecting(1, "streams", "reshard", "orders", "--shards", "0");
        assertEquals(6, cli.withoutToken("streams", "rollback", "orders").exit());
    }
}
