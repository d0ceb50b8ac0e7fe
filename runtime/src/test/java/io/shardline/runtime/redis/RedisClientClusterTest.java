package io.shardline.runtime.redis;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.redis.RedisCluster;
import io.shardline.testkit.redis.RedisClusterTest;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The worker's Redis client in cluster mode against a real three-primary Redis Cluster: many more commands at once
 * than the pool has connections, from several event loops, all complete (the Vert.x cluster client takes one pooled
 * connection to every node per command; {@link CommandGate} keeps them from waiting for each other).
 */
@RedisClusterTest
class RedisClientClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private Vertx vertx;
    private RedisClient redis;

    @BeforeEach
    void start(RedisCluster cluster) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.cluster(cluster.seedUris()), new SplittableRandom(3)),
                WAIT);
    }

    @AfterEach
    void stop() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    @Test
    void manyConcurrentCommandsFromSeveralEventLoopsAllComplete() {
        int loops = 4;
        int perLoop = 30;
        List<Future<?>> done = new ArrayList<>();
        for (int l = 0; l < loops; l++) {
            int loop = l;
            Promise<Void> finished = Promise.promise();
            done.add(finished.future());
            vertx.deployVerticle(new AbstractVerticle() {
                @Override
                public void start() {
                    List<Future<Response>> sent = new ArrayList<>();
                    for (int i = 0; i < perLoop; i++) {
                        String key = "{k" + loop + ":" + i + "}";
                        sent.add(redis.send(Request.cmd(Command.SET).arg(key).arg(i)));
                        sent.add(redis.send(Request.cmd(Command.HGETALL).arg(key + ":h")));
                    }
                    Future.all(sent).<Void>mapEmpty().onComplete(finished);
                }
            });
        }
        result(Future.all(done), WAIT);
        assertThat(result(redis.send(Request.cmd(Command.GET).arg("{k3:29}")), WAIT).toInteger()).isEqualTo(29);
    }
}
