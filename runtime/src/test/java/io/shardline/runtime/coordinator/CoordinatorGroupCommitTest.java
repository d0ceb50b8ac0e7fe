package io.shardline.runtime.coordinator;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The coordinator host's group commit against a real Redis: many requests decided while one guarded append is
 * in flight are all answered after one further append (not one append each), and a host whose leader epoch was
 * taken by another answers none of them {@code NONE}.
 */
@RedisTest
class CoordinatorGroupCommitTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Pattern EVALSHA_CALLS = Pattern.compile("cmdstat_evalsha:calls=(\\d+)");
    private static final int REQUESTS = 60;

    /** Counts the heartbeats the pure coordinator decided (before their records are persisted). */
    private final AtomicInteger decided = new AtomicInteger();
    private final CoordinatorMetrics decisions = new CoordinatorMetrics() {
        @Override
        public void heartbeat(String groupId, ErrorCode error) {
            decided.incrementAndGet();
        }
    };
    private Vertx vertx;
    private RedisClient redis;
    private RedisGroupLog log;
    private CoordinatorVerticle host;
    private String cluster;

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(7)), WAIT);
        cluster = "gc-" + UUID.randomUUID().toString().substring(0, 8);
        log = new RedisGroupLog(redis, new MetadataKeys(cluster));
        host = new CoordinatorVerticle(new CoordinatorHostSettings(cluster, "w1", redis, log, new RecordCodec(),
                new ShardCommands(new RuntimeShardRedis(redis)), AssignorRegistry::builtIn, decisions,
                () -> System.nanoTime() / 1_000_000, 60_000, 1_000, 10_000));
        result(vertx.deployVerticle(host), WAIT);
        ClusterMember me = new ClusterMember("node-1", "w1", "127.0.0.1:1", Map.of());
        host.onViewChange(new LeaderView(List.of(me), me));
        Await.eventually(() -> host.role().compose(r -> r == LeaderRole.LEADER ? Future.succeededFuture(r)
                : Future.failedFuture("role " + r)), WAIT, 20);
        JsonObject configured = result(vertx.eventBus().<JsonObject>request(CoordinatorWire.address(cluster, "w1"),
                CoordinatorWire.toJson(GroupConfig.of("g", Map.of("s", 8), "range", 10_000, 1_000)))
                .map(Message::body), WAIT);
        assertThat(configured.getInteger("error")).isEqualTo(ErrorCode.NONE.code());
    }

    @AfterEach
    void stop() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    @Test
    void requestsDecidedDuringOneAppendShareTheNext(RedisServer server) throws IOException {
        long before = evalshaCalls(server);
        List<Future<HeartbeatResponse>> answers;
        try (RespProbe probe = server.probe()) {
            // Hold every write until all requests are decided: the first request's append waits in Redis while the
            // others are decided behind it, however slowly this machine delivers them (the pause only ends early).
            probe.call("CLIENT", "PAUSE", Long.toString(WAIT.toMillis()), "WRITE");
            int decidedBefore = decided.get();
            answers = joinAll(REQUESTS);
            Await.until(() -> decided.get() - decidedBefore >= REQUESTS, WAIT, 5, "every request decided");
            probe.call("CLIENT", "UNPAUSE");
        }
        for (Future<HeartbeatResponse> answer : answers) {
            HeartbeatResponse r = result(answer, WAIT);
            assertThat(r.error()).as(r.errorMessage()).isEqualTo(ErrorCode.NONE);
            assertThat(r.memberEpoch()).isPositive();
        }
        long appends = evalshaCalls(server) - before;
        // One append for the first request, one for everything decided while it waited, plus owner-key writes: far
        // fewer than one per request.
        assertThat(appends).as("guarded writes for %s requests", REQUESTS).isLessThan(REQUESTS / 2);
    }

    @Test
    void aDeposedHostAnswersNoRequestNone() {
        RedisGroupLog.Claim taken = result(log.claim("intruder", -1), WAIT);
        assertThat(taken.won()).isTrue();
        for (Future<HeartbeatResponse> answer : joinAll(20)) {
            assertThat(result(answer, WAIT).error()).isEqualTo(ErrorCode.NOT_COORDINATOR);
        }
        assertThat(result(host.role(), WAIT)).isIn(LeaderRole.DEPOSED, LeaderRole.CLAIMING);
    }

    private List<Future<HeartbeatResponse>> joinAll(int count) {
        List<Future<HeartbeatResponse>> answers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            HeartbeatRequest join = new HeartbeatRequest("g", "m" + i, 0, Optional.empty(), Optional.empty(),
                    new TreeSet<>(List.of("s")), new TreeSet<>(), List.of(), 0);
            answers.add(vertx.eventBus().<JsonObject>request(CoordinatorWire.address(cluster, "w1"),
                    CoordinatorWire.toJson(join)).map(m -> CoordinatorWire.heartbeatResponse(m.body())));
        }
        return answers;
    }

    private static long evalshaCalls(RedisServer server) throws IOException {
        try (RespProbe probe = server.probe()) {
            Matcher m = EVALSHA_CALLS.matcher(String.valueOf(probe.call("INFO", "commandstats")));
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        }
    }
}
