package io.shardline.runtime.member;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.codahale.metrics.MetricRegistry;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.RebalanceProtocol;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.coordinator.CoordinatorHostSettings;
import io.shardline.runtime.coordinator.CoordinatorVerticle;
import io.shardline.runtime.coordinator.CoordinatorWire;
import io.shardline.runtime.coordinator.LeaderRole;
import io.shardline.runtime.metrics.DropwizardCoordinatorMetrics;
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
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The member heartbeat loop in one JVM against a real {@link CoordinatorVerticle} (local event bus, real
 * redis-server for the group log and owner keys). Both run on one hand-moved clock; shard consumption is a fake
 * port that records starts, drains and fences and fails the test when two members hold one shard at once.
 */
@RedisTest
class MemberVerticleTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The longest the clock waits for one unanswered request before it moves on anyway. */
    private static final Duration REPLY_WAIT = Duration.ofSeconds(5);
    private static final int HEARTBEAT_MS = 300;
    private static final int SESSION_MS = 3000;
    private static final int REBALANCE_TIMEOUT_MS = 2000;
    /** One group per test: owner keys live in the Redis server all tests of the class share. */
    private final GroupConfig group = new GroupConfig("g-" + UUID.randomUUID(), new TreeMap<>(Map.of("orders", 4)),
            "range", RebalanceProtocol.COOPERATIVE, SESSION_MS, HEARTBEAT_MS, REBALANCE_TIMEOUT_MS);
    private static final ClusterMember A = new ClusterMember("node-a", "a", "127.0.0.1:1", Map.of());

    private Vertx vertx;
    private RedisClient redis;
    private String cluster;
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final AtomicReference<LeaderView> view = new AtomicReference<>(new LeaderView(List.of(A), A));
    private final Map<ShardId, String> holders = new ConcurrentHashMap<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    /** Reply addresses of requests to the coordinator not answered yet: the clock stands still while there are any. */
    private final Set<String> awaitingReply = ConcurrentHashMap.newKeySet();
    /** Heartbeat requests as they go on the event bus, and the coordinator's answers to requests. */
    private final List<JsonObject> heartbeats = new CopyOnWriteArrayList<>();
    private final List<JsonObject> answers = new CopyOnWriteArrayList<>();
    /** Drops the next answer it matches (a lost reply), then clears itself. */
    private final AtomicReference<Predicate<JsonObject>> loseAnswer = new AtomicReference<>();

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(7)), WAIT);
        cluster = "c-" + UUID.randomUUID();
        String coordinatorAddress = CoordinatorWire.address(cluster, "a");
        vertx.eventBus().addOutboundInterceptor(delivery -> {
            String address = delivery.message().address();
            String replyTo = delivery.message().replyAddress();
            Object body = delivery.message().body();
            if (address.equals(coordinatorAddress) && replyTo != null) {
                awaitingReply.add(replyTo);
                if (body instanceof JsonObject j && CoordinatorWire.HEARTBEAT.equals(j.getString(CoordinatorWire.OP))) {
                    heartbeats.add(j);
                }
            } else if (awaitingReply.contains(address) && body instanceof JsonObject j) {
                answers.add(j);
                Predicate<JsonObject> lose = loseAnswer.get();
                if (lose != null && lose.test(j) && loseAnswer.compareAndSet(lose, null)) {
                    // Lost: the member's request times out; the clock stands still until then.
                    vertx.setTimer(2_500, t -> awaitingReply.remove(address));
                    return;
                }
                awaitingReply.remove(address);
            } else {
                awaitingReply.remove(address);
            }
            delivery.next();
        });
        CoordinatorVerticle coordinator = new CoordinatorVerticle(new CoordinatorHostSettings(cluster, "a", redis,
                new RedisGroupLog(redis, new MetadataKeys(cluster)), new RecordCodec(),
                new ShardCommands(new RuntimeShardRedis(redis)), AssignorRegistry::builtIn,
                new DropwizardCoordinatorMetrics(new MetricRegistry()), clock::get, 20, HEARTBEAT_MS, SESSION_MS));
        result(vertx.deployVerticle(coordinator), WAIT);
        coordinator.onViewChange(view.get());
        Await.until(() -> result(coordinator.role(), WAIT) == LeaderRole.LEADER, WAIT, 10, "leader");
    }

    @AfterEach
    void stop() {
        assertEquals(List.of(), violations, "a shard was held by two members at once");
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    /** A fake consumption port; {@code hangDrains} makes every release wait forever (a handler that never returns). */
    private final class FakeShards implements MemberShardsPort {
        final String memberId;
        final boolean hangDrains;
        final Set<ShardId> held = ConcurrentHashMap.newKeySet();
        /** When it last had to stop everything (-1: not since the test reset it). */
        final AtomicLong fencedAt = new AtomicLong(-1);
        final AtomicLong firstReleaseAt = new AtomicLong(-1);
        /** The order of acquisitions and fences: each shard's last acquisition, and the last fence. */
        final AtomicLong events = new AtomicLong();
        final Map<ShardId, Long> acquiredEvent = new ConcurrentHashMap<>();
        final AtomicLong fencedEvent = new AtomicLong(-1);

        FakeShards(String memberId, boolean hangDrains) {
            this.memberId = memberId;
            this.hangDrains = hangDrains;
        }

        @Override
        public Future<Void> acquire(ShardId shard, long ownerEpoch) {
            String other = holders.putIfAbsent(shard, memberId);
            if (other != null && !other.equals(memberId)) {
                violations.add(memberId + " started " + shard + " while " + other + " still held it");
            }
            held.add(shard);
            acquiredEvent.put(shard, events.incrementAndGet());
            return Future.succeededFuture();
        }

        @Override
        public Future<Void> release(ShardId shard) {
            firstReleaseAt.compareAndSet(-1, clock.get());
            if (hangDrains) {
                return Promise.<Void>promise().future();
            }
            drop(shard);
            return Future.succeededFuture();
        }

        @Override
        public Future<Void> fenceAll() {
            fencedAt.set(clock.get());
            for (ShardId s : Set.copyOf(held)) {
                drop(s);
            }
            fencedEvent.set(events.incrementAndGet());
            return Future.succeededFuture();
        }

        private void drop(ShardId shard) {
            held.remove(shard);
            holders.remove(shard, memberId);
        }
    }

    private MemberVerticle deploy(FakeShards shards) {
        MemberVerticle member = new MemberVerticle(cluster, shards.memberId, group, shards, view::get, clock::get,
                HEARTBEAT_MS, 5);
        result(vertx.deployVerticle(member), WAIT);
        return member;
    }

    /**
     * Moves the shared clock forward in 20 ms steps, giving the verticles 5 ms of real time for each step (the
     * clock runs at most four times faster than real time), until {@code condition} holds; a real-time deadline
     * fails the test. The clock stands still while a request to the coordinator waits for its answer (up to
     * {@link #REPLY_WAIT}), so a machine too busy to answer a heartbeat in its simulated time does not expire
     * leases that would have been renewed in time on the simulated clock.
     */
    private void advanceUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what + " (clock " + clock.get() + ")");
            }
            long replyDeadline = System.nanoTime() + REPLY_WAIT.toNanos();
            while (!awaitingReply.isEmpty() && System.nanoTime() < replyDeadline) {
                LockSupport.parkNanos(200_000);
            }
            clock.addAndGet(20);
            try {
                TimeUnit.MILLISECONDS.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static Set<ShardId> shards(int... indexes) {
        Set<ShardId> out = new TreeSet<>();
        for (int i : indexes) {
            out.add(new ShardId("orders", i));
        }
        return out;
    }

    @Test
    void configuresItsGroupOnGroupNotFoundThenJoinsAndStartsItsShards() {
        FakeShards shards = new FakeShards("w-l-m0", false);
        MemberVerticle member = deploy(shards);
        advanceUntil(() -> shards.held.equals(shards(0, 1, 2, 3)), "the member starts every shard");
        assertEquals(shards(0, 1, 2, 3), result(member.owned(), WAIT).keySet());
    }

    @Test
    void aNewGroupsFirstMemberJoinsRightAfterConfiguringItNotAnIntervalLater() {
        int interval = 5_000;
        GroupConfig slow = new GroupConfig(group.groupId(), group.streams(), "range", RebalanceProtocol.COOPERATIVE,
                5 * interval, interval, REBALANCE_TIMEOUT_MS);
        FakeShards shards = new FakeShards("w-l-m0", false);
        long deployedAt = clock.get();
        result(vertx.deployVerticle(new MemberVerticle(cluster, shards.memberId, slow, shards, view::get, clock::get,
                interval, 5)), WAIT);
        advanceUntil(() -> shards.held.equals(shards(0, 1, 2, 3)), "the member starts every shard");
        // The clock stands still while a request waits for its answer: GROUP_NOT_FOUND, the configuration and the
        // join take no simulated time. Waiting for the next heartbeat would take the 1 s a GROUP_NOT_FOUND answer
        // names (or the group's interval, 5 s): the member must join before either.
        assertThat(clock.get() - deployedAt).isLessThan(1_000);
    }

    @Test
    void aChangedListenerConfigurationReachesAnExistingGroup() {
        FakeShards first = new FakeShards("w-l-m0", false);
        deploy(first);
        advanceUntil(() -> first.held.equals(shards(0, 1, 2, 3)), "the first member starts every shard");
        // The listener changed (another assignor, eager): a member running the new definition joins.
        GroupConfig changed = new GroupConfig(group.groupId(), group.streams(), "round-robin", RebalanceProtocol.EAGER,
                SESSION_MS, HEARTBEAT_MS, REBALANCE_TIMEOUT_MS);
        FakeShards second = new FakeShards("w2-l-m0", false);
        result(vertx.deployVerticle(new MemberVerticle(cluster, second.memberId, changed, second, view::get, clock::get,
                HEARTBEAT_MS, 5)), WAIT);
        advanceUntil(() -> "round-robin".equals(describe().getString("assignor")), "the group takes the new assignor");
        advanceUntil(() -> second.held.size() == 2 && first.held.size() == 2, "the shards split 2/2");
    }

    @Test
    void weightsCarriedInTheHeartbeatGiveProportionalShares() {
        GroupConfig sticky = new GroupConfig(group.groupId(), group.streams(), "sticky", RebalanceProtocol.COOPERATIVE,
                SESSION_MS, HEARTBEAT_MS, REBALANCE_TIMEOUT_MS);
        FakeShards heavy = new FakeShards("w-l-m0", false);
        FakeShards light = new FakeShards("w2-l-m0", false);
        for (FakeShards f : List.of(heavy, light)) {
            MemberIdentity identity = new MemberIdentity(Optional.empty(), Optional.empty(), f == heavy ? 3 : 1);
            result(vertx.deployVerticle(new MemberVerticle(cluster, f.memberId, identity, sticky, f, view::get,
                    clock::get, HEARTBEAT_MS, 5)), WAIT);
        }
        advanceUntil(() -> heavy.held.size() == 3 && light.held.size() == 1, "shards split 3/1 by weight");
        assertEquals(3, describe().getJsonArray("members").stream().map(JsonObject.class::cast)
                .filter(m -> m.getString("id").equals("w-l-m0")).findFirst().orElseThrow().getInteger("weight"));
    }

    private JsonObject describe() {
        JsonObject answer = result(vertx.eventBus().<JsonObject>request(CoordinatorWire.address(cluster, "a"),
                io.shardline.runtime.coordinator.ReadModelWire.describeRequest(group.groupId())), WAIT).body();
        return answer.getJsonObject("group", new JsonObject());
    }

    @Test
    void leaveDrainsEveryShardThenLeavesTheGroup() {
        FakeShards shards = new FakeShards("w-l-m0", false);
        MemberVerticle member = deploy(shards);
        advanceUntil(() -> shards.held.size() == 4, "joined");
        Future<Void> left = member.leave();
        advanceUntil(left::isComplete, "the leave is answered");
        assertThat(left.succeeded()).isTrue();
        assertEquals(Set.of(), shards.held);
        // The member is gone from the group (at once after an accepted leave; after its lease if the leave was refused).
        advanceUntil(() -> {
            JsonObject answer = result(vertx.eventBus().<JsonObject>request(CoordinatorWire.address(cluster, "a"),
                    CoordinatorWire.toJson(new HeartbeatRequest(group.groupId(), "w-l-m0", 1, Optional.empty(),
                            Optional.empty(), new TreeSet<>(List.of("orders")), new TreeSet<>(), List.of(), 0))), WAIT)
                    .body();
            return CoordinatorWire.heartbeatResponse(answer).error() == ErrorCode.UNKNOWN_MEMBER_ID;
        }, "the member left the group");
    }

    @Test
    void steadyHeartbeatsCarryNoShardsAndALostRevocationIsSentAgain() {
        FakeShards first = new FakeShards("w1-l-m0", false);
        deploy(first);
        advanceUntil(() -> first.held.size() == 4, "the first member starts every shard");
        heartbeats.clear();
        answers.clear();
        advanceUntil(() -> heartbeats.stream().anyMatch(h -> !h.containsKey("owned"))
                && answers.stream().anyMatch(a -> a.getInteger("error") == 0 && !a.containsKey("assigned")),
                "a heartbeat without its owned shards answered without the assignment (docs/protocol.md section 2)");
        // The answer that revokes two of the first member's shards is lost: its next request lists its shards
        // again (a resync) and gets the revocation again; only then does the second member get them.
        loseAnswer.set(a -> first.memberId.equals(a.getString("memberId")) && a.containsKey("assigned")
                && a.getJsonObject("assigned").size() == 2);
        FakeShards second = new FakeShards("w2-l-m0", false);
        deploy(second);
        advanceUntil(() -> loseAnswer.get() == null, "the revocation's answer is lost");
        heartbeats.clear();
        advanceUntil(() -> second.held.size() == 2 && first.held.size() == 2, "the two shards move");
        assertThat(heartbeats.stream().filter(h -> first.memberId.equals(h.getString("memberId"))).findFirst()
                .orElseThrow().containsKey("owned")).as("the request after the lost answer lists its shards").isTrue();
    }

    @Test
    void selfFencesWhenHeartbeatsFailPastItsLease() {
        FakeShards shards = new FakeShards("w-l-m0", false);
        deploy(shards);
        advanceUntil(() -> shards.held.size() == 4, "joined");
        long cutOff = clock.get();
        shards.fencedAt.set(-1);
        // The cluster view now names only workers that do not exist: every heartbeat fails, to the leader and to
        // the next worker the member tries when the leader does not answer.
        ClusterMember gone = new ClusterMember("node-z", "z", "127.0.0.1:9", Map.of());
        ClusterMember goneToo = new ClusterMember("node-y", "y", "127.0.0.1:8", Map.of());
        view.set(new LeaderView(List.of(gone, goneToo), A));
        advanceUntil(() -> shards.fencedAt.get() >= 0, "the member fences itself");
        long fencedAt = shards.fencedAt.get();
        assertThat(fencedAt).as("kept processing while its lease lasted").isGreaterThan(cutOff + SESSION_MS / 2);
        assertThat(fencedAt).as("stopped before the coordinator may expire it").isLessThan(cutOff + SESSION_MS);
        // The fence dropped every shard; a shard held now was acquired after it: a rejoin, which may come at once
        // (the coordinator's hint to heartbeat now reaches the member on the event bus).
        assertThat(shards.held).allSatisfy(s -> assertThat(shards.acquiredEvent.get(s))
                .as("shard " + s + " acquired after the fence").isGreaterThan(shards.fencedEvent.get()));
    }

    @Test
    void aHungDrainIsFencedAtTheRebalanceTimeoutAndTheShardsMoveOn() {
        FakeShards hung = new FakeShards("w1-l-m0", true);
        deploy(hung);
        advanceUntil(() -> hung.held.size() == 4, "the first member starts every shard");
        FakeShards other = new FakeShards("w2-l-m0", false);
        deploy(other);
        advanceUntil(() -> hung.firstReleaseAt.get() >= 0, "the first member is told to revoke two shards");
        long revokedAt = hung.firstReleaseAt.get();
        advanceUntil(() -> other.held.size() == 2, "the second member gets the two shards");
        long movedAt = clock.get();
        assertThat(hung.fencedAt.get()).as("the hung member stopped everything").isPositive();
        assertThat(movedAt - revokedAt).as("moved only after the rebalance timeout, before any lease could pass")
                .isBetween((long) REBALANCE_TIMEOUT_MS - 3L * HEARTBEAT_MS, (long) REBALANCE_TIMEOUT_MS + SESSION_MS);
        advanceUntil(() -> hung.held.size() == 2, "the fenced member rejoins and gets its share back");
    }
}
