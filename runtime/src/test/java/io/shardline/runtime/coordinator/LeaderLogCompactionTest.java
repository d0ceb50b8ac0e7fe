package io.shardline.runtime.coordinator;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.runtime.shard.RuntimeShardRedis;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.store.MetadataKeys;
import io.shardline.runtime.store.RecordCodec;
import io.shardline.runtime.store.RedisGroupLog;
import io.shardline.runtime.testing.Await;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The group log of a group whose snapshot alone is past the compaction bound (a record per shard) is compacted once,
 * not at every write: steady heartbeats of its member, answered after empty guarded appends, leave the store
 * revision and the stored log as they are.
 */
@RedisTest
class LeaderLogCompactionTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** More shards than {@link LeaderLog#MAX_RECORDS_BEFORE_COMPACTION}: the snapshot alone is past the bound. */
    private static final int SHARDS = LeaderLog.MAX_RECORDS_BEFORE_COMPACTION + 500;

    private Vertx vertx;
    private RedisClient redis;
    private MetadataKeys keys;
    private String cluster;

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(7)), WAIT);
        cluster = "lc-" + UUID.randomUUID().toString().substring(0, 8);
        keys = new MetadataKeys(cluster);
        CoordinatorVerticle host = new CoordinatorVerticle(new CoordinatorHostSettings(cluster, "w1", redis,
                new RedisGroupLog(redis, keys), new RecordCodec(), new ShardCommands(new RuntimeShardRedis(redis)),
                AssignorRegistry::builtIn, new CoordinatorMetrics() { }, () -> System.nanoTime() / 1_000_000, 1_000,
                1_000, 60_000));
        result(vertx.deployVerticle(host), WAIT);
        ClusterMember me = new ClusterMember("node-1", "w1", "127.0.0.1:1", Map.of());
        host.onViewChange(new LeaderView(List.of(me), me));
        Await.eventually(() -> host.role().compose(r -> r == LeaderRole.LEADER ? Future.succeededFuture(r)
                : Future.failedFuture("role " + r)), WAIT, 20);
        JsonObject configured = result(vertx.eventBus().<JsonObject>request(CoordinatorWire.address(cluster, "w1"),
                CoordinatorWire.toJson(GroupConfig.of("g", Map.of("s", SHARDS), "range", 60_000, 1_000)))
                .map(Message::body), WAIT);
        assertThat(configured.getInteger("error")).isEqualTo(ErrorCode.NONE.code());
    }

    @AfterEach
    void stop() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    @Test
    void aGroupWhoseSnapshotIsPastTheBoundIsNotCompactedAtEveryWrite(RedisServer server) throws IOException {
        HeartbeatResponse joined = heartbeat(new HeartbeatRequest("g", "m0", 0, Optional.empty(), Optional.empty(),
                new TreeSet<>(List.of("s")), new TreeSet<>(), List.of(), 0));
        assertThat(joined.assigned()).hasSize(SHARDS);
        HeartbeatRequest steady = new HeartbeatRequest("g", "m0", joined.memberEpoch(), Optional.empty(),
                Optional.empty(), new TreeSet<>(List.of("s")), new TreeSet<>(joined.assigned().keySet()), List.of(),
                joined.assignmentEpoch());
        heartbeat(steady); // the member confirms what it owns: may still decide records
        heartbeat(steady);
        try (RespProbe probe = server.probe()) {
            String revision = String.valueOf(probe.call("GET", keys.revision()));
            long logLength = (Long) probe.call("LLEN", keys.log());
            assertThat(logLength).as("the stored log holds the snapshot").isGreaterThan(SHARDS);
            for (int i = 0; i < 5; i++) {
                heartbeat(steady); // each answered after a guarded append, empty here
            }
            assertThat(String.valueOf(probe.call("GET", keys.revision())))
                    .as("store revision after 5 steady heartbeats (an empty append does not move it; a compaction does)")
                    .isEqualTo(revision);
            assertThat((Long) probe.call("LLEN", keys.log())).isEqualTo(logLength);
        }
    }

    @Test
    void aCompactionFollowsAtLeastAsManyAppendedRecordsAsItWrote() {
        int bound = LeaderLog.MAX_RECORDS_BEFORE_COMPACTION;
        assertFalse(LeaderLog.compactionDue(bound, 0), "at the bound");
        assertTrue(LeaderLog.compactionDue(bound + 1, 0), "past the bound, small snapshot");
        assertFalse(LeaderLog.compactionDue(2 * 4_102, 4_102), "a large snapshot, not yet doubled");
        assertTrue(LeaderLog.compactionDue(2 * 4_102 + 1, 4_102), "a large snapshot, doubled");
    }

    private HeartbeatResponse heartbeat(HeartbeatRequest request) {
        HeartbeatResponse r = result(vertx.eventBus().<JsonObject>request(CoordinatorWire.address(cluster, "w1"),
                CoordinatorWire.toJson(request)).map(m -> CoordinatorWire.heartbeatResponse(m.body())), WAIT);
        assertThat(r.error()).as(r.errorMessage()).isEqualTo(ErrorCode.NONE);
        return r;
    }
}
