package io.shardline.runtime.store;

import static io.shardline.runtime.testing.Await.failure;
import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.runtime.redis.RedisServerInfo;
import io.shardline.testkit.redis.RedisCluster;
import io.shardline.testkit.redis.RedisClusterTest;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's group log on a real three-primary Redis Cluster: the scripts run on the node holding the
 * cluster's hash tag {@code {shardline:<cluster>}}, claims and guarded appends work there, and the run id a
 * leader fences on is that node's (stable from call to call, although the client sends keyless commands to any
 * node), changing when that node restarts.
 */
@RedisClusterTest
class RedisGroupLogClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    private Vertx vertx;
    private RedisClient redis;
    private RedisGroupLog log;

    @BeforeEach
    void start(RedisCluster cluster) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.cluster(cluster.seedUris()), new SplittableRandom(5)),
                WAIT);
        log = new RedisGroupLog(redis, new MetadataKeys("c-" + UUID.randomUUID()));
    }

    @AfterEach
    void stop() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    @Test
    void claimAppendAndCompactRunOnTheNodeOfTheClustersHashTag(RedisCluster cluster) throws IOException {
        String run = result(redis.refreshServerInfo(log.keys().leaderEpoch()), WAIT).runId();
        RedisGroupLog.Claim first = result(log.claim("w1", 0), WAIT);
        assertThat(first.won()).isTrue();
        assertEquals(1L, result(log.append(1, 0, run, List.of("a", "b")), WAIT));
        RedisGroupLog.Claim second = result(log.claim("w2", 1), WAIT);
        assertEquals(new GroupLogState(2, 1, "w2", List.of("a", "b")), second.state());
        assertThat(second.lastWrite()).hasValueSatisfying(w -> assertEquals(run, w.runId()));
        assertThat(failure(log.append(1, 1, run, List.of("zombie")), WAIT)).isInstanceOf(StoreFencedException.class);
        assertEquals(2L, result(log.compact(2, 1, run, List.of("snapshot")), WAIT));
        assertEquals(List.of("snapshot"), result(log.load(), WAIT).records());

        RedisServer home = cluster.ownerOf(log.keys().prefix());
        try (RespProbe probe = home.probe()) {
            assertThat(probe.call("LRANGE", log.keys().log(), "0", "-1")).isEqualTo(List.of("snapshot"));
        }
    }

    @Test
    void theRunIdIsTheOneOfTheNodeHoldingTheKeyAndChangesOnlyWhenThatNodeRestarts(RedisCluster cluster)
            throws IOException {
        String key = log.keys().leaderEpoch();
        RedisServer home = cluster.ownerOf(key);
        String homeRunId = runId(home);
        for (int i = 0; i < 12; i++) {
            assertThat(result(redis.refreshServerInfo(key), WAIT).runId()).as("call %d", i).isEqualTo(homeRunId);
        }
        assertThat(cluster.nodes().stream().map(RedisGroupLogClusterTest::runIdUnchecked).distinct()).hasSize(3);
        assertThat(result(redis.onAllPrimaries(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.PING)),
                WAIT)).hasSize(3);

        home.kill();
        home.startAgain();
        cluster.awaitHealthy(Duration.ofSeconds(30));
        String restarted = runId(home);
        assertThat(restarted).isNotEqualTo(homeRunId);
        long deadline = System.nanoTime() + WAIT.toNanos();
        RedisServerInfo seen = null;
        while (System.nanoTime() < deadline) {
            try {
                seen = result(redis.refreshServerInfo(key), WAIT);
                if (seen.runId().equals(restarted)) {
                    break;
                }
            } catch (RuntimeException e) {
                // the client replaces its connections to the restarted node
            }
        }
        assertThat(seen).isNotNull();
        assertThat(seen.runId()).isEqualTo(restarted);
        assertThat(redis.serverInfo().mode()).isEqualTo("cluster");
    }

    private static String runIdUnchecked(RedisServer node) {
        try {
            return runId(node);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String runId(RedisServer node) throws IOException {
        try (RespProbe probe = node.probe()) {
            return RedisServerInfo.parse((String) probe.call("INFO", "server")).runId();
        }
    }
}
