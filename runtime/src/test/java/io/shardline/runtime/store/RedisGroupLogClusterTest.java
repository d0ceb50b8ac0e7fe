package io.shardline.runtime.store;

import static io.shardline.runtime.testing.Await.failure;
import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.coordinator.AuditEvent;
import io.shardline.coordinator.AuditType;
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
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's group log on a real three-primary Redis Cluster: the scripts run on the node holding the
 * cluster's hash tag {@code {shardline:<cluster>}}, claims and guarded appends work there, and the run id a
 * leader fences on is the one of all primaries together (stable from call to call, although the client sends a
 * keyless {@code INFO} to any node), changing when any of them restarts. The groups' audit streams share that slot,
 * so the guarded append writes them in the same script.
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
        String run = result(redis.refreshServerInfo(), WAIT).runId();
        RedisGroupLog.Claim first = result(log.claim("w1", 0), WAIT);
        assertThat(first.won()).isTrue();
        assertEquals(1L, result(log.append(1, 0, run, List.of("a", "b")), WAIT));
        RedisGroupLog.Claim second = result(log.claim("w2", 1), WAIT);
        assertEquals(new GroupLogState(2, 1, "w2", List.of("a", "b")), second.state());
        assertThat(second.lastWrite()).hasValueSatisfying(w -> assertEquals(run, w.runId()));
        assertThat(failure(log.append(1, 1, run, List.of("zombie")), WAIT)).isInstanceOf(StoreFencedException.class);
        assertEquals(2L, result(log.compact(2, 1, run, List.of("snapshot")), WAIT));
        assertEquals(List.of("snapshot"), result(log.load(), WAIT).records());
        // Audit streams of two groups, written by the same script as the append, in the group log's slot.
        AuditEvent joined = new AuditEvent(1, "billing", AuditType.MEMBER_JOINED, "m1", Optional.empty(), 1, 1, 1, "j");
        assertEquals(3L, result(log.append(2, 2, run, List.of("r"), Map.of(
                "billing", List.of(RedisAuditLog.encode(joined)),
                "orders", List.of(RedisAuditLog.encode(joined), RedisAuditLog.encode(joined)))), WAIT));
        RedisAuditLog audit = new RedisAuditLog(redis, log.keys());
        assertThat(result(audit.recent("orders", 10, o -> o.getString("type")), WAIT))
                .containsExactly("MEMBER_JOINED", "MEMBER_JOINED");

        RedisServer home = cluster.ownerOf(log.keys().prefix());
        try (RespProbe probe = home.probe()) {
            assertThat(probe.call("LRANGE", log.keys().log(), "0", "-1")).isEqualTo(List.of("snapshot", "r"));
            assertThat(probe.call("XLEN", log.keys().audit("billing"))).isEqualTo(1L);
        }
    }

    @Test
    void theRunIdIsThePrimariesTogetherAndChangesWhenAnyOfThemRestarts(RedisCluster cluster) {
        String expected = joinedRunIds(cluster);
        for (int i = 0; i < 5; i++) {
            assertThat(result(redis.refreshServerInfo(), WAIT).runId()).as("call %d", i).isEqualTo(expected);
        }
        assertThat(expected.split(",")).hasSize(3).doesNotHaveDuplicates();
        assertThat(redis.serverInfo().mode()).isEqualTo("cluster");

        // A node that holds shards but not the group log restarts empty: its owner keys, streams and groups are
        // gone, so the leader must see a new identity and re-fence (which writes every owner key again).
        RedisServer home = cluster.ownerOf(log.keys().prefix());
        RedisServer other = cluster.nodes().stream().filter(n -> n != home).findFirst().orElseThrow();
        other.kill();
        other.startAgain();
        cluster.awaitHealthy(Duration.ofSeconds(30));
        String restarted = joinedRunIds(cluster);
        assertThat(restarted).isNotEqualTo(expected);
        long deadline = System.nanoTime() + WAIT.toNanos();
        String seen = null;
        while (!restarted.equals(seen) && System.nanoTime() < deadline) {
            try {
                seen = result(redis.refreshServerInfo(), WAIT).runId();
            } catch (RuntimeException e) {
                // the client replaces its connections to the restarted node
            }
        }
        assertThat(seen).isEqualTo(restarted);
    }

    private static String joinedRunIds(RedisCluster cluster) {
        return cluster.nodes().stream().map(RedisGroupLogClusterTest::runIdUnchecked).sorted()
                .collect(java.util.stream.Collectors.joining(","));
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
