package io.shardline.runtime.coordinator;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.RebalanceProtocol;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.runtime.rest.entity.AuditEntry;
import io.shardline.runtime.shard.RuntimeShardRedis;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.store.GroupLogState;
import io.shardline.runtime.store.MetadataKeys;
import io.shardline.runtime.store.RecordCodec;
import io.shardline.runtime.store.RedisAuditLog;
import io.shardline.runtime.store.RedisGroupLog;
import io.shardline.runtime.testing.Await;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The audit trail of a group survives a leader change (docs/rest.md, the audit route): two coordinator hosts in one JVM on a local event
 * bus over a real redis-server, with a hand-moved clock (as {@link CoordinatorVerticleTest}). The trail is read as
 * {@code GET /groups/{group}/audit} reads it, from Redis ({@link RedisAuditLog}, entries mapped onto the REST entity).
 */
@RedisTest
class CoordinatorAuditTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int HEARTBEAT_MS = 300;
    private static final int SESSION_MS = 3000;
    private static final ClusterMember A = new ClusterMember("node-a", "a", "127.0.0.1:1", Map.of());
    private static final ClusterMember B = new ClusterMember("node-b", "b", "127.0.0.1:2", Map.of());

    private final String group = "g-" + UUID.randomUUID();
    private final GroupConfig config = new GroupConfig(group, new TreeMap<>(Map.of("orders", 4)), "range",
            RebalanceProtocol.COOPERATIVE, SESSION_MS, HEARTBEAT_MS, 2000);
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private Vertx vertx;
    private RedisClient redis;
    private String cluster;
    private RedisAuditLog trail;

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(11)), WAIT);
        cluster = "audit-" + UUID.randomUUID();
        trail = new RedisAuditLog(redis, new MetadataKeys(cluster));
    }

    @AfterEach
    void stop() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    /** Deploys a host; {@code view} is its cluster view (whose oldest member leads, seen from its local member). */
    private CoordinatorVerticle deploy(ClusterMember local, LeaderView view) {
        CoordinatorVerticle host = new CoordinatorVerticle(new CoordinatorHostSettings(cluster, local.workerId(), redis,
                new RedisGroupLog(redis, new MetadataKeys(cluster)), new RecordCodec(),
                new ShardCommands(new RuntimeShardRedis(redis)), AssignorRegistry::builtIn, CoordinatorMetrics.NOOP,
                clock::get, 20, HEARTBEAT_MS, SESSION_MS));
        result(vertx.deployVerticle(host), WAIT);
        host.onViewChange(view);
        return host;
    }

    private static void awaitRole(CoordinatorVerticle host, LeaderRole role) {
        Await.until(() -> result(host.role(), WAIT) == role, WAIT, 10, "coordinator role " + role);
    }

    private JsonObject send(String workerId, JsonObject body) {
        return result(vertx.eventBus().<JsonObject>request(CoordinatorWire.address(cluster, workerId), body), WAIT)
                .body();
    }

    private HeartbeatResponse heartbeat(String workerId, String memberId, HeartbeatResponse last) {
        int epoch = last == null ? 0 : last.memberEpoch();
        TreeSet<ShardId> owned = last == null ? new TreeSet<>() : new TreeSet<>(last.assigned().keySet());
        return CoordinatorWire.heartbeatResponse(send(workerId, CoordinatorWire.toJson(new HeartbeatRequest(group,
                memberId, epoch, Optional.empty(), Optional.empty(), new TreeSet<>(List.of("orders")), owned, List.of(),
                last == null ? 0 : last.assignmentEpoch()))));
    }

    /** Joins and heartbeats until the member owns what it is assigned. */
    private HeartbeatResponse settle(String workerId, String memberId) {
        HeartbeatResponse last = heartbeat(workerId, memberId, null);
        assertEquals(ErrorCode.NONE, last.error(), last.errorMessage());
        for (int i = 0; i < 5; i++) {
            last = heartbeat(workerId, memberId, last);
        }
        return last;
    }

    private void configure(String workerId) {
        assertEquals(ErrorCode.NONE.code(), send(workerId, CoordinatorWire.toJson(config)).getInteger("error"));
    }

    /** The group's trail as the REST API answers it, oldest first. */
    private List<AuditEntry> audit() {
        return result(trail.recent(group, 10_000, o -> o.mapTo(AuditEntry.class)), WAIT);
    }

    private static List<String> describe(List<AuditEntry> entries) {
        return entries.stream().map(e -> e.type() + " " + e.memberId()).toList();
    }

    @Test
    void aDecisionsEventsAreInRedisWhenItIsAnsweredAndSteadyHeartbeatsAddNone() {
        CoordinatorVerticle host = deploy(A, new LeaderView(List.of(A, B), A));
        awaitRole(host, LeaderRole.LEADER);
        configure("a");
        HeartbeatResponse joined = heartbeat("a", "m1", null);
        assertEquals(ErrorCode.NONE, joined.error());
        // No waiting: the answer is sent only after the append that stored the events.
        assertThat(describe(audit())).contains("MEMBER_JOINED m1");
        HeartbeatResponse settled = heartbeat("a", "m1", joined);
        for (int i = 0; i < 5; i++) {
            settled = heartbeat("a", "m1", settled);
        }
        assertEquals(new TreeSet<>(List.of(new ShardId("orders", 0), new ShardId("orders", 1),
                new ShardId("orders", 2), new ShardId("orders", 3))), settled.assigned().keySet());
        List<AuditEntry> stable = audit();
        assertThat(describe(stable)).contains("SHARD_GRANTED m1");
        for (int i = 0; i < 5; i++) {
            clock.addAndGet(HEARTBEAT_MS);
            settled = heartbeat("a", "m1", settled);
            assertEquals(ErrorCode.NONE, settled.error());
        }
        assertEquals(stable, audit(), "heartbeats that decide nothing store nothing");
        assertThat(stable).allSatisfy(e -> assertThat(e.groupEpoch()).isPositive());
    }

    @Test
    void aNewLeaderAnswersWithItsPredecessorsEventsAndAppendsItsOwnAfterThem() {
        CoordinatorVerticle a = deploy(A, new LeaderView(List.of(A, B), A));
        CoordinatorVerticle b = deploy(B, new LeaderView(List.of(A, B), B));
        awaitRole(a, LeaderRole.LEADER);
        awaitRole(b, LeaderRole.FOLLOWER);
        configure("a");
        settle("a", "m1");
        HeartbeatResponse m2 = settle("a", "m2");
        List<AuditEntry> predecessors = audit();
        assertThat(describe(predecessors)).contains("MEMBER_JOINED m1", "MEMBER_JOINED m2");

        // B becomes the oldest cluster member and claims the leader epoch; m1 stops heartbeating (as if its worker
        // had crashed).
        a.onViewChange(new LeaderView(List.of(B, A), A));
        b.onViewChange(new LeaderView(List.of(B, A), B));
        awaitRole(b, LeaderRole.LEADER);
        awaitRole(a, LeaderRole.FOLLOWER);
        assertEquals(predecessors, audit(), "the new leader starts with the whole trail");

        // m2 goes on heartbeating to B past the inherited lease; m1 is expired by B and its shards move to m2.
        for (int i = 0; i < 2 * SESSION_MS / HEARTBEAT_MS; i++) {
            clock.addAndGet(HEARTBEAT_MS);
            m2 = heartbeat("b", "m2", m2);
            assertEquals(ErrorCode.NONE, m2.error(), m2.errorMessage());
        }
        Await.until(() -> describe(audit()).contains("MEMBER_EXPIRED m1"), WAIT, 10, "B expired m1");
        List<AuditEntry> all = audit();
        assertEquals(predecessors, all.subList(0, predecessors.size()), "the predecessor's events come first, intact");
        List<AuditEntry> successors = all.subList(predecessors.size(), all.size());
        assertThat(describe(successors)).contains("MEMBER_EXPIRED m1");
        assertThat(successors).allSatisfy(e -> assertThat(e.timeMs())
                .isGreaterThanOrEqualTo(predecessors.get(predecessors.size() - 1).timeMs()));
        assertThat(all).extracting(AuditEntry::timeMs).isSorted();
    }

    @Test
    void aDeposedLeaderAddsNoEvent() {
        // The role's transitions as the machine logs them: DEPOSED can be short (the host claims again once the
        // intruder stays silent), too short for a poll of the role on a busy machine.
        ListAppender<ILoggingEvent> roles = new ListAppender<>();
        Logger roleLog = (Logger) LoggerFactory.getLogger(LeaderRoleMachine.class);
        roles.start();
        roleLog.addAppender(roles);
        try {
            deposedLeaderAddsNoEvent(roles);
        } finally {
            roleLog.detachAppender(roles);
        }
    }

    private void deposedLeaderAddsNoEvent(ListAppender<ILoggingEvent> roles) {
        CoordinatorVerticle host = deploy(A, new LeaderView(List.of(A, B), A));
        awaitRole(host, LeaderRole.LEADER);
        configure("a");
        settle("a", "m1");
        List<AuditEntry> before = audit();
        RedisGroupLog intruder = new RedisGroupLog(redis, new MetadataKeys(cluster));
        GroupLogState state = result(intruder.load(), WAIT);
        assertThat(result(intruder.claim("intruder", state.leaderEpoch()), WAIT).won()).isTrue();

        // The join is decided (MEMBER_JOINED, a group epoch bump), but its append is refused: no answer, no event.
        HeartbeatResponse refused = heartbeat("a", "m2", null);
        assertEquals(ErrorCode.NOT_COORDINATOR, refused.error());
        Await.until(() -> roles.list.stream().anyMatch(e -> e.getFormattedMessage()
                .startsWith("Coordinator on a: LEADER -> DEPOSED")), WAIT, 10, "coordinator a deposed");
        assertEquals(before, audit());
        assertThat(describe(audit())).doesNotContain("MEMBER_JOINED m2");
    }
}
