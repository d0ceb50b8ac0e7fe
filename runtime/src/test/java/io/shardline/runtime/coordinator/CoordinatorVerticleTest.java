package io.shardline.runtime.coordinator;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Metered;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.RebalanceProtocol;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.LeaveRequest;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.metrics.DropwizardCoordinatorMetrics;
import io.shardline.runtime.metrics.MetricTemplate;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.runtime.shard.RuntimeShardRedis;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.store.GroupLogState;
import io.shardline.runtime.store.MetadataKeys;
import io.shardline.runtime.store.RecordCodec;
import io.shardline.runtime.store.RedisGroupLog;
import io.shardline.runtime.testing.Await;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
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

/**
 * The coordinator host in one JVM: a real {@link CoordinatorVerticle} on a local (non-clustered) event bus, its
 * group log and owner keys in a real redis-server, and a hand-moved clock (the verticle's ticks run on a short real
 * period, but every expiry and rebalance deadline follows the manual clock). Requests are sent as members send
 * them, through {@link CoordinatorWire}.
 */
@RedisTest
class CoordinatorVerticleTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int HEARTBEAT_MS = 300;
    private static final int SESSION_MS = 3000;
    private static final int REBALANCE_TIMEOUT_MS = 2000;
    /** One group per test: owner keys live in the Redis server all tests of the class share. */
    private final String group = "g-" + UUID.randomUUID();
    private final GroupConfig config = new GroupConfig(group, new TreeMap<>(Map.of("orders", 4)), "range",
            RebalanceProtocol.COOPERATIVE, SESSION_MS, HEARTBEAT_MS, REBALANCE_TIMEOUT_MS);
    private static final ClusterMember A = new ClusterMember("node-a", "a", "127.0.0.1:1", Map.of());
    private static final ClusterMember B = new ClusterMember("node-b", "b", "127.0.0.1:2", Map.of());

    private Vertx vertx;
    private RedisClient redis;
    private String cluster;
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final MetricRegistry registry = new MetricRegistry();

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(5)), WAIT);
        cluster = "c-" + UUID.randomUUID();
    }

    @AfterEach
    void stop() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    private CoordinatorVerticle deploy(ClusterMember local) {
        CoordinatorVerticle host = new CoordinatorVerticle(new CoordinatorHostSettings(cluster, local.workerId(), redis,
                new RedisGroupLog(redis, new MetadataKeys(cluster)), new RecordCodec(),
                new ShardCommands(new RuntimeShardRedis(redis)), AssignorRegistry::builtIn,
                new DropwizardCoordinatorMetrics(registry), clock::get, 20, HEARTBEAT_MS, SESSION_MS));
        result(vertx.deployVerticle(host), WAIT);
        host.onViewChange(new LeaderView(List.of(A, B), local));
        return host;
    }

    private CoordinatorVerticle leader() {
        CoordinatorVerticle host = deploy(A);
        awaitRole(host, LeaderRole.LEADER);
        return host;
    }

    private static void awaitRole(CoordinatorVerticle host, LeaderRole role) {
        Await.until(() -> result(host.role(), WAIT) == role, WAIT, 10, "coordinator role " + role);
    }

    private JsonObject send(String workerId, JsonObject body) {
        return result(vertx.eventBus().<JsonObject>request(CoordinatorWire.address(cluster, workerId), body), WAIT)
                .body();
    }

    private HeartbeatResponse heartbeat(String memberId, int epoch, List<ShardId> owned, List<RevokeReport> revoking,
            int assignmentEpoch) {
        return CoordinatorWire.heartbeatResponse(send("a", CoordinatorWire.toJson(new HeartbeatRequest(group, memberId,
                epoch, Optional.empty(), Optional.empty(), new TreeSet<>(List.of("orders")), new TreeSet<>(owned),
                revoking, assignmentEpoch))));
    }

    private HeartbeatResponse join(String memberId) {
        return heartbeat(memberId, 0, List.of(), List.of(), 0);
    }

    /** Heartbeats until the member owns what it is assigned; returns the last answer. */
    private HeartbeatResponse settle(String memberId, HeartbeatResponse answer) {
        HeartbeatResponse last = answer;
        for (int i = 0; i < 5; i++) {
            last = heartbeat(memberId, last.memberEpoch(), List.copyOf(last.assigned().keySet()), List.of(),
                    last.assignmentEpoch());
        }
        return last;
    }

    private static List<ShardId> shards(int... indexes) {
        List<ShardId> out = new ArrayList<>();
        for (int i : indexes) {
            out.add(new ShardId("orders", i));
        }
        return out;
    }

    private void configure() {
        assertEquals(ErrorCode.NONE.code(), send("a", CoordinatorWire.toJson(config)).getInteger("error"));
    }

    @Test
    void aNonLeaderAnswersNotCoordinatorNamingTheLeader() {
        CoordinatorVerticle follower = deploy(B);
        awaitRole(follower, LeaderRole.FOLLOWER);
        HeartbeatResponse answer = CoordinatorWire.heartbeatResponse(send("b", CoordinatorWire.toJson(
                new HeartbeatRequest(group, "m1", 0, Optional.empty(), Optional.empty(), new TreeSet<>(List.of("orders")),
                        new TreeSet<>(), List.of(), 0))));
        assertEquals(ErrorCode.NOT_COORDINATOR, answer.error());
        assertThat(answer.errorMessage()).contains("the cluster leader is a");
        assertEquals(ErrorCode.NOT_COORDINATOR.code(), send("b", CoordinatorWire.toJson(config)).getInteger("error"));
    }

    @Test
    void groupNotFoundThenConfigureThenJoinGetsEveryShard() {
        leader();
        assertEquals(ErrorCode.GROUP_NOT_FOUND, join("m1").error());
        configure();
        HeartbeatResponse joined = join("m1");
        assertEquals(ErrorCode.NONE, joined.error());
        HeartbeatResponse settled = settle("m1", joined);
        assertEquals(new TreeSet<>(shards(0, 1, 2, 3)), settled.assigned().keySet());
        assertEquals(REBALANCE_TIMEOUT_MS, result(new RedisGroupLog(redis, new MetadataKeys(cluster)).load(), WAIT)
                .records().stream().filter(r -> r.contains("GroupConfigRecord")).findFirst().map(r -> new RecordCodec()
                        .decode(r)).map(r -> ((io.shardline.coordinator.record.GroupConfigRecord) r).config()
                        .rebalanceTimeoutMs()).orElseThrow(), "the rebalance timeout travels with the configuration");
    }

    @Test
    void leaveRemovesTheMember() {
        leader();
        configure();
        HeartbeatResponse settled = settle("m1", join("m1"));
        JsonObject left = send("a", CoordinatorWire.toJson(new LeaveRequest(group, "m1", settled.memberEpoch())));
        assertEquals(ErrorCode.NONE, CoordinatorWire.leaveResponse(left).error());
        assertEquals(ErrorCode.UNKNOWN_MEMBER_ID, heartbeat("m1", settled.memberEpoch(), List.of(), List.of(),
                settled.assignmentEpoch()).error());
    }

    @Test
    void aDeposedLeaderConfirmsLeadershipBeforeAnsweringAndRefuses() {
        CoordinatorVerticle host = leader();
        configure();
        HeartbeatResponse settled = settle("m1", join("m1"));
        RedisGroupLog intruder = new RedisGroupLog(redis, new MetadataKeys(cluster));
        GroupLogState before = result(intruder.load(), WAIT);
        // The intruder sees more workers than the host and keeps writing, so the host follows it (it would claim
        // back from a silent holder, or from one that sees fewer workers: LeaderSuccession).
        GroupLogState taken = result(intruder.claim("intruder", before.leaderEpoch(), 3, -1, ""), WAIT).state();
        assertThat(taken.holder()).isEqualTo("intruder");
        long beat = vertx.setPeriodic(50, id -> intruder.append(taken.leaderEpoch(), taken.revision(), "", List.of()));
        try {
            // A steady heartbeat decides nothing, yet it renews a lease: it must not be answered by a deposed leader.
            HeartbeatResponse refused = heartbeat("m1", settled.memberEpoch(), List.copyOf(settled.assigned().keySet()),
                    List.of(), settled.assignmentEpoch());
            assertEquals(ErrorCode.NOT_COORDINATOR, refused.error());
            awaitRole(host, LeaderRole.DEPOSED);
        } finally {
            vertx.cancelTimer(beat);
        }
        GroupLogState after = result(intruder.load(), WAIT);
        assertEquals(before.revision(), after.revision(), "the deposed leader wrote nothing");
        assertEquals("intruder", after.holder());
    }

    @Test
    void aMemberWhoseDrainHangsIsFencedAtTheRebalanceTimeoutAndItsShardsMoveOn() {
        leader();
        configure();
        HeartbeatResponse a = settle("A", join("A"));
        HeartbeatResponse b = join("B");
        a = heartbeat("A", a.memberEpoch(), shards(0, 1, 2, 3), List.of(), a.assignmentEpoch());
        assertEquals(new TreeSet<>(shards(0, 1)), a.assigned().keySet());
        long revokedAt = clock.get();
        List<RevokeReport> draining = List.of(new RevokeReport(shards(2).get(0), RevokeState.DRAINING),
                new RevokeReport(shards(3).get(0), RevokeState.DRAINING));
        Await.until(() -> gaugeValue(DropwizardCoordinatorMetrics.PENDING_REVOCATIONS.name(group)) == 2, WAIT, 10,
                "a tick reports the two pending revocations");
        HeartbeatResponse answer = a;
        while (answer.error() == ErrorCode.NONE) {
            assertThat(clock.get()).as("not fenced before the rebalance timeout").isLessThan(revokedAt
                    + REBALANCE_TIMEOUT_MS + HEARTBEAT_MS);
            clock.addAndGet(HEARTBEAT_MS);
            answer = heartbeat("A", a.memberEpoch(), shards(0, 1), draining, a.assignmentEpoch());
            b = heartbeat("B", b.memberEpoch(), List.copyOf(b.assigned().keySet()), List.of(), b.assignmentEpoch());
            assertEquals(new TreeSet<>(), b.assigned().keySet(), "nothing moves while A may still process");
        }
        assertEquals(ErrorCode.FENCED_MEMBER_EPOCH, answer.error());
        assertThat(clock.get()).isGreaterThanOrEqualTo(revokedAt + REBALANCE_TIMEOUT_MS);
        HeartbeatResponse rejoined = join("A");
        heartbeat("A", rejoined.memberEpoch(), List.of(), List.of(), rejoined.assignmentEpoch());
        b = heartbeat("B", b.memberEpoch(), List.of(), List.of(), b.assignmentEpoch());
        assertEquals(new TreeSet<>(shards(2, 3)), b.assigned().keySet());
        assertEquals(1, registry.meter(DropwizardCoordinatorMetrics.REBALANCE_TIMEOUTS.name(group)).getCount());
    }

    @Test
    void everyCoordinatorMetricIsFed() {
        CoordinatorVerticle host = leader();
        configure();
        HeartbeatResponse a = settle("A", join("A"));
        HeartbeatResponse b = join("B");
        a = heartbeat("A", a.memberEpoch(), shards(0, 1, 2, 3), List.of(), a.assignmentEpoch());
        Await.until(() -> gaugeValue(DropwizardCoordinatorMetrics.PENDING_REVOCATIONS.name(group)) == 2, WAIT, 10,
                "pending revocations");
        List<RevokeReport> draining = List.of(new RevokeReport(shards(2).get(0), RevokeState.DRAINING),
                new RevokeReport(shards(3).get(0), RevokeState.DRAINING));
        // A's drain hangs past the rebalance timeout while B keeps heartbeating; A is fenced, never rejoins, and
        // expires one session after its last accepted heartbeat.
        for (long t = 0; t <= REBALANCE_TIMEOUT_MS + SESSION_MS; t += HEARTBEAT_MS) {
            clock.addAndGet(HEARTBEAT_MS);
            heartbeat("A", a.memberEpoch(), shards(0, 1), draining, a.assignmentEpoch());
            b = heartbeat("B", b.memberEpoch(), List.copyOf(b.assigned().keySet()), List.of(), b.assignmentEpoch());
        }
        Await.until(() -> registry.meter(DropwizardCoordinatorMetrics.EXPIRIES.name(group)).getCount() > 0, WAIT, 10,
                "A expired");
        host.onViewChange(new LeaderView(List.of(B, A), A));
        awaitRole(host, LeaderRole.FOLLOWER);
        host.onViewChange(new LeaderView(List.of(A, B), A));
        awaitRole(host, LeaderRole.LEADER);
        for (MetricTemplate t : DropwizardCoordinatorMetrics.TEMPLATES) {
            List<Metric> fed = registry.getMetrics().entrySet().stream().filter(e -> t.match(e.getKey()).isPresent())
                    .map(Map.Entry::getValue).toList();
            assertThat(fed).as(t.template()).isNotEmpty();
            for (Metric m : fed) {
                if (m instanceof Timer timer) {
                    assertThat(timer.getCount()).as(t.template()).isPositive();
                } else if (m instanceof Metered meter) {
                    assertThat(meter.getCount()).as(t.template()).isPositive();
                } else if (m instanceof Gauge<?> gauge && t != DropwizardCoordinatorMetrics.PENDING_REVOCATIONS) {
                    assertThat(((Number) gauge.getValue()).longValue()).as(t.template()).isPositive();
                }
            }
        }
        assertThat(registry.meter(DropwizardCoordinatorMetrics.LEADER_CHANGES.name()).getCount())
                .as("took, lost and took the coordinator role again").isGreaterThanOrEqualTo(3);
    }

    private long gaugeValue(String name) {
        Gauge<?> gauge = registry.getGauges().get(name);
        return gauge == null ? -1 : ((Number) gauge.getValue()).longValue();
    }
}
