package io.shardline.runtime.control;

import static io.shardline.runtime.testing.Await.failure;
import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.runtime.shard.Fence;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An offset reset's script over a real redis-server where the group is not on the shard yet: it creates the group
 * there through the guard of {@link io.shardline.runtime.topology.GroupCreation}, and on a retired shard's tombstone
 * (docs/protocol.md section 8b) creates nothing and is refused with 409, applied or as a dry run.
 */
@RedisTest
class PositionScriptsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final String stream = "ps-" + UUID.randomUUID();
    private Vertx vertx;
    private RedisClient redis;
    private PositionScripts scripts;

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(3)), WAIT);
        scripts = new PositionScripts(redis);
    }

    @AfterEach
    void stop() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    @Test
    void aResetCreatesTheGroupOnAShardItIsNotOnYet() {
        ShardId shard = new ShardId(stream, 0);

        PositionScripts.Moved moved = result(scripts.move("g", shard, ShardPosition.parse("earliest", "position"),
                true), WAIT);

        assertThat(moved).isEqualTo(new PositionScripts.Moved("", "0-0", 0));
        assertThat(result(scripts.read("g", shard), WAIT).found()).as("the group on the shard").isTrue();
    }

    @Test
    void aResetOnARetiredShardCreatesNothingAndIsRefused() {
        ShardId shard = new ShardId(stream, 5);
        result(redis.send(Request.cmd(Command.HSET).arg(Fence.routingKey(shard)).arg("epoch").arg("3")
                .arg("retired").arg("3")), WAIT);

        for (boolean apply : new boolean[] {false, true}) {
            Throwable refused = failure(scripts.move("g", shard, ShardPosition.parse("earliest", "position"), apply),
                    WAIT);

            assertThat(refused).as("apply=%s", apply).isInstanceOf(ControlPlaneException.class)
                    .hasMessageContaining("shard " + stream + ":5 was retired by a resharding");
            assertThat(((ControlPlaneException) refused).status()).isEqualTo(409);
        }
        assertThat(result(redis.send(Request.cmd(Command.EXISTS).arg(shard.key())), WAIT).toInteger())
                .as("the retired shard's key is not brought back").isZero();
    }
}
