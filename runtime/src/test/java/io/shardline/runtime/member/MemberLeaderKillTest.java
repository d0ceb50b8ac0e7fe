package io.shardline.runtime.member;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.RebalanceProtocol;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.coordinator.CoordinatorWire;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A healthy member keeps its shards when the leader is killed: the interleaving of a chaos run in which a member
 * on a healthy worker fenced itself after {@code KILL_LEADER} and was granted its own shards again under a new owner
 * epoch, so its unacknowledged records were handled twice. Its last answer came shortly before the kill; its lease
 * ran {@code session - 2 x heartbeat} = 2 s from the heartbeat it answered; the successor claimed the leader epoch
 * 1.2 s after the kill (the silence bound of 750 ms, a watch tick and the claim), and until then named the dead leader.
 * The member went back to the dead leader after three such answers (100, 200, 400 ms apart), then waited out its
 * backoff (500 ms), and reached the successor after its lease had run out.
 *
 * <p>The two coordinator hosts are event-bus endpoints around one pure {@link GroupCoordinator} (the successor's
 * replay of the group log, which {@code LeaderClaim} does, is not what this test is about); a killed host fails every
 * request at once, as a refused connection does. One hand-moved clock; it stands still while a request waits for its
 * answer.
 */
class MemberLeaderKillTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** The chaos suite's timeouts: the member's lease outlives its last answer by 3000 - 2 x 500 ms. */
    private static final int HEARTBEAT_MS = 500;
    private static final int SESSION_MS = 3_000;
    /** The kill after the member's last answer (its next heartbeat, an interval after that one, fails). */
    private static final long KILL_AFTER_ANSWER_MS = 300;
    /** The successor's claim after the kill: the silence bound (750 ms), up to one watch tick (250 ms), the claim. */
    private static final long CLAIM_AFTER_KILL_MS = 1_200;
    private static final ClusterMember W1 = new ClusterMember("node-1", "w1", "127.0.0.1:1", Map.of());
    private static final ClusterMember W2 = new ClusterMember("node-2", "w2", "127.0.0.1:2", Map.of());
    private static final ClusterMember W3 = new ClusterMember("node-3", "w3", "127.0.0.1:3", Map.of());

    private final GroupConfig group = new GroupConfig("g", new TreeMap<>(Map.of("orders", 4)), "range",
            RebalanceProtocol.COOPERATIVE, SESSION_MS, HEARTBEAT_MS, 2_000);
    private final AtomicLong clock = new AtomicLong(1_000_000);
    /** Requests to a coordinator host not answered yet: the clock stands still while there are any. */
    private final AtomicInteger awaiting = new AtomicInteger();
    private final GroupCoordinator coordinator = new GroupCoordinator(AssignorRegistry::builtIn, CoordinatorMetrics.NOOP);
    /** Who answered each heartbeat without error, in order. */
    private final List<String> renewedBy = new CopyOnWriteArrayList<>();
    private final Set<ShardId> fenced = ConcurrentHashMap.newKeySet();
    /** When w1 is killed, or -1 while it is not about to be. */
    private final AtomicLong killedAt = new AtomicLong(-1);
    /** w1 fails this many more requests while alive (a request it leaves unanswered). */
    private final AtomicInteger w1Drops = new AtomicInteger();
    private volatile boolean killAfterNextAnswer;
    private Vertx vertx;
    private String cluster;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        cluster = "c-" + System.nanoTime();
        coordinator.configureGroup(clock.get(), group, ChangeReason.CONFIG_CHANGED);
        vertx.eventBus().<JsonObject>consumer(CoordinatorWire.address(cluster, "w1"), this::onW1);
        vertx.eventBus().<JsonObject>consumer(CoordinatorWire.address(cluster, "w2"), this::onW2);
    }

    @AfterEach
    void stop() {
        result(vertx.close(), WAIT);
    }

    @Test
    void aMemberWhoseLastAnswerCameRightBeforeTheKillIsRenewedByTheSuccessor() {
        MemberVerticle member = deploy();
        advanceUntil(() -> renewedBy.size() >= 3, "the member joins and heartbeats to w1");
        SortedMap<ShardId, Integer> before = result(member.owned(), WAIT);
        assertThat(before).hasSize(4);
        killAfterNextAnswer = true;
        advanceUntil(() -> killedAt.get() >= 0 && clock.get() >= killedAt.get() + 2 * SESSION_MS,
                "two session timeouts after w1's kill");
        assertThat(fenced).as("shards the member dropped when it fenced itself").isEmpty();
        assertThat(renewedBy).as("the successor renews the member's lease").contains("w2");
        assertThat(result(member.owned(), WAIT)).as("the member keeps its shards under their owner epochs")
                .isEqualTo(before);
    }

    @Test
    void aLiveLeaderThatLeftOneRequestUnansweredIsAskedAgainAtOnce() {
        MemberVerticle member = deploy();
        advanceUntil(() -> renewedBy.size() >= 3, "the member joins and heartbeats to w1");
        SortedMap<ShardId, Integer> before = result(member.owned(), WAIT);
        int renewals = renewedBy.size();
        w1Drops.set(1);
        advanceUntil(() -> renewedBy.size() >= renewals + 4, "four more renewals");
        assertThat(renewedBy.subList(renewals, renewedBy.size())).as("w2 does not lead; w1 still writes")
                .containsOnly("w1");
        assertThat(fenced).isEmpty();
        assertThat(result(member.owned(), WAIT)).isEqualTo(before);
    }

    /** w1 leads until it is killed; then it fails every request at once. */
    private void onW1(Message<JsonObject> message) {
        long killed = killedAt.get();
        if (killed >= 0 && clock.get() >= killed || w1Drops.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            message.fail(-1, "connection refused");
            return;
        }
        answer(message, "w1");
        if (killAfterNextAnswer && killedAt.compareAndSet(-1, clock.get() + KILL_AFTER_ANSWER_MS)) {
            killAfterNextAnswer = false;
        }
    }

    /**
     * w2 names w1 with the time w1 has written nothing (it writes every tick while alive, 250 ms) until it claimed
     * the leader epoch, {@link #CLAIM_AFTER_KILL_MS} after the kill; then it leads.
     */
    private void onW2(Message<JsonObject> message) {
        long killed = killedAt.get();
        long now = clock.get();
        if (killed >= 0 && now >= killed + CLAIM_AFTER_KILL_MS) {
            answer(message, "w2");
            return;
        }
        long silentMs = killed >= 0 && now >= killed ? now - killed + HEARTBEAT_MS / 4 : HEARTBEAT_MS / 4;
        message.reply(CoordinatorWire.notCoordinator(message.body().getString(CoordinatorWire.OP), message.body(),
                "worker w2 is not the coordinator", "w1", silentMs, HEARTBEAT_MS, SESSION_MS));
    }

    private void answer(Message<JsonObject> message, String host) {
        if (!CoordinatorWire.HEARTBEAT.equals(message.body().getString(CoordinatorWire.OP))) {
            message.reply(new JsonObject().put("error", ErrorCode.NONE.code())); // the group's configuration
            return;
        }
        HeartbeatResponse response = coordinator.heartbeat(clock.get(),
                CoordinatorWire.heartbeatRequest(message.body())).response();
        if (response.error() == ErrorCode.NONE) {
            renewedBy.add(host);
        }
        message.reply(CoordinatorWire.toJson(response));
    }

    private MemberVerticle deploy() {
        String coordinators = "shardline." + cluster + ".coordinator.";
        vertx.eventBus().addOutboundInterceptor(delivery -> {
            if (delivery.message().address().startsWith(coordinators)) {
                awaiting.incrementAndGet(); // a request; anything else on this bus is the answer to one
            } else {
                awaiting.updateAndGet(n -> Math.max(0, n - 1));
            }
            delivery.next();
        });
        LeaderView view = new LeaderView(List.of(W1, W2, W3), W3);
        MemberVerticle member = new MemberVerticle(cluster, "w3-g-m0", group, new FakeShards(), () -> view, clock::get,
                HEARTBEAT_MS, 5);
        result(vertx.deployVerticle(member), WAIT);
        return member;
    }

    /** Consumption without Redis: records the shards dropped by a self-fence. */
    private final class FakeShards implements MemberShardsPort {
        private final Set<ShardId> held = ConcurrentHashMap.newKeySet();

        @Override
        public Future<Void> acquire(ShardId shard, long ownerEpoch) {
            held.add(shard);
            return Future.succeededFuture();
        }

        @Override
        public Future<Void> release(ShardId shard) {
            held.remove(shard);
            return Future.succeededFuture();
        }

        @Override
        public Future<Void> fenceAll() {
            fenced.addAll(held);
            held.clear();
            return Future.succeededFuture();
        }
    }

    /**
     * Moves the clock in 10 ms steps, 2 ms of real time each, until {@code condition} holds; it stands still while a
     * request waits for its answer (up to 5 s of real time), so a busy machine does not run a lease out.
     */
    private void advanceUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what + " (clock " + clock.get() + ")");
            }
            long replyDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (awaiting.get() > 0 && System.nanoTime() < replyDeadline) {
                LockSupport.parkNanos(200_000);
            }
            clock.addAndGet(10);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }
}
