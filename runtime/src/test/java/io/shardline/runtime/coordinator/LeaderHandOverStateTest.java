package io.shardline.runtime.coordinator;

import static io.shardline.runtime.testing.Await.failure;
import static io.shardline.runtime.testing.Await.result;
import static io.shardline.runtime.testing.Await.until;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.coordinator.LeaderHandOver.State;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LeaderHandOver} on its own, one test per edge of its lifecycle and per answer of the successor's side: a
 * real Vert.x context and event bus, the host a small recording {@link LeaderHandOver.Host} (its role and what it
 * was told to do), the clock moved by hand. The hand-over between real coordinator hosts over Redis is
 * {@link LeaderHandOverTest}.
 */
class LeaderHandOverStateTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String CLUSTER = "handover-state";
    private static final ClusterMember W1 = new ClusterMember("n1", "w1", "127.0.0.1:1", Map.of());
    private static final ClusterMember W2 = new ClusterMember("n2", "w2", "127.0.0.1:2", Map.of());
    private static final LeaderView BOTH = new LeaderView(List.of(W1, W2), W1);

    private final AtomicLong clockMs = new AtomicLong(1_000);
    private final RecordingHost host = new RecordingHost();
    private Vertx vertx;
    private Context context;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        context = vertx.getOrCreateContext();
    }

    @AfterEach
    void stop() {
        result(vertx.close(), WAIT);
    }

    @Test
    void testServingToStoppedWhenNotLeading() {
        LeaderHandOver handOver = handOver("w1", 60_000);
        host.role = LeaderRole.FOLLOWER;

        result(on(() -> handOver.begin(BOTH, Set.of(), 10_000)), WAIT);

        assertThat(on(handOver::state)).isEqualTo(State.STOPPED);
        assertThat(host.resigned).containsExactly("stopping");
        assertThat(on(handOver::successor)).contains("w2");
        assertThat(on(handOver::stopping)).isTrue();
    }

    @Test
    void testServingToStoppedWhenNoOtherWorker() {
        LeaderHandOver handOver = handOver("w1", 60_000);

        result(on(() -> handOver.begin(new LeaderView(List.of(W1), W1), Set.of("a"), 10_000)), WAIT);

        assertThat(on(handOver::state)).isEqualTo(State.STOPPED);
        assertThat(host.resigned).containsExactly("stopping; no other worker to hand over to");
        assertThat(on(handOver::successor)).isEmpty();
    }

    @Test
    void testHandingOverToRedirectingToStoppedOnceEveryMemberAsked() {
        List<Message<JsonObject>> asked = successorEndpoint("w2");
        LeaderHandOver handOver = handOver("w1", 60_000);

        Future<Void> done = on(() -> handOver.begin(BOTH, Set.of("a", "b"), 10_000));
        until(() -> asked.size() == 1, WAIT, 5, "take-over asked of w2");
        assertThat(asked.get(0).body()).isEqualTo(new JsonObject()
                .put(CoordinatorWire.OP, CoordinatorWire.TAKE_OVER).put("from", "w1"));
        assertThat(on(handOver::state)).isEqualTo(State.HANDING_OVER);
        assertThat(host.resigned).as("still answering until the successor claimed").isEmpty();

        clockMs.addAndGet(250);
        asked.get(0).reply(new JsonObject().put("leaderEpoch", 8));
        until(() -> on(handOver::state) == State.REDIRECTING, WAIT, 5, "resigned after the successor's answer");
        assertThat(host.resigned).containsExactly("handed over to w2 in 250 ms");
        on(() -> {
            handOver.redirected("a");
            handOver.redirected("c");
            return null;
        });
        assertThat(done.isComplete()).as("member b has not asked yet").isFalse();

        on(() -> {
            handOver.redirected("b");
            return null;
        });
        result(done, WAIT);
        assertThat(on(handOver::state)).isEqualTo(State.STOPPED);
        assertThat(on(handOver::successor)).as("still named after the hand-over").contains("w2");
    }

    @Test
    void testRedirectingEndsAfterTwoHeartbeatIntervalsWhenAMemberNeverAsks() {
        List<Message<JsonObject>> asked = successorEndpoint("w2");
        LeaderHandOver handOver = handOver("w1", 50);

        Future<Void> done = on(() -> handOver.begin(BOTH, Set.of("a"), 10_000));
        until(() -> asked.size() == 1, WAIT, 5, "take-over asked of w2");
        asked.get(0).reply(new JsonObject().put("leaderEpoch", 8));

        result(done, WAIT);
        assertThat(on(handOver::state)).isEqualTo(State.STOPPED);
    }

    @Test
    void testSuccessorLeavingTheViewEndsTheHandOverAtOnce() {
        List<Message<JsonObject>> asked = successorEndpoint("w2");
        LeaderHandOver handOver = handOver("w1", 60_000);

        Future<Void> done = on(() -> handOver.begin(BOTH, Set.of(), 60_000));
        until(() -> asked.size() == 1, WAIT, 5, "take-over asked of w2");
        on(() -> {
            handOver.viewChanged(BOTH);
            return null;
        });
        assertThat(on(handOver::state)).as("w2 is still in the view").isEqualTo(State.HANDING_OVER);

        on(() -> {
            handOver.viewChanged(new LeaderView(List.of(W1), W1));
            return null;
        });
        result(done, WAIT);
        assertThat(host.resigned).containsExactly(
                "hand-over to w2 failed (worker w2 left the cluster); the cluster view decides");
        assertThat(on(handOver::state)).isEqualTo(State.STOPPED);
    }

    @Test
    void testSecondBeginReturnsTheFirstOutcome() {
        LeaderHandOver handOver = handOver("w1", 60_000);
        host.role = LeaderRole.FOLLOWER;

        result(on(() -> handOver.begin(BOTH, Set.of(), 10_000)), WAIT);
        result(on(() -> handOver.begin(BOTH, Set.of(), 10_000)), WAIT);

        assertThat(host.resigned).containsExactly("stopping");
    }

    @Test
    void testTakeOverClaimsAndAnswersTheLeaderEpoch() {
        LeaderHandOver handOver = handOver("w2", 60_000);
        host.role = LeaderRole.FOLLOWER;
        host.claim = from -> {
            host.role = LeaderRole.LEADER;
            host.epoch = 9;
            return Future.succeededFuture();
        };
        endpoint("w2", handOver);

        JsonObject answer = result(askTakeOver("w2", "w1"), WAIT);

        assertThat(answer).isEqualTo(new JsonObject().put("leaderEpoch", 9L));
        assertThat(host.claimsFrom).containsExactly("w1");
        assertThat(on(handOver::state)).as("the successor is not stopping").isEqualTo(State.SERVING);
    }

    @Test
    void testTakeOverAnswersAtOnceWhenAlreadyLeading() {
        LeaderHandOver handOver = handOver("w2", 60_000);
        host.epoch = 4;
        endpoint("w2", handOver);

        JsonObject answer = result(askTakeOver("w2", "w1"), WAIT);

        assertThat(answer).isEqualTo(new JsonObject().put("leaderEpoch", 4L));
        assertThat(host.claimsFrom).isEmpty();
    }

    @Test
    void testTakeOverFailsWhileTheClaimHasNotSucceeded() {
        LeaderHandOver handOver = handOver("w2", 60_000);
        host.role = LeaderRole.FOLLOWER;
        host.claim = from -> {
            host.role = LeaderRole.CLAIMING;
            return Future.succeededFuture();
        };
        endpoint("w2", handOver);

        ReplyException e = (ReplyException) failure(askTakeOver("w2", "w1"), WAIT);

        assertThat(e.failureCode()).isEqualTo(ErrorCode.NOT_COORDINATOR.code());
        assertThat(e.getMessage()).isEqualTo("worker w2 could not claim yet (role CLAIMING); it keeps trying");
    }

    @Test
    void testTakeOverRefusedWhileStopping() {
        LeaderHandOver handOver = handOver("w2", 60_000);
        host.role = LeaderRole.FOLLOWER;
        result(on(() -> handOver.begin(BOTH, Set.of(), 10_000)), WAIT);
        endpoint("w2", handOver);

        ReplyException e = (ReplyException) failure(askTakeOver("w2", "w1"), WAIT);

        assertThat(e.failureCode()).isEqualTo(ErrorCode.NOT_COORDINATOR.code());
        assertThat(e.getMessage()).isEqualTo("worker w2 is stopping too");
        assertThat(host.claimsFrom).isEmpty();
    }

    private LeaderHandOver handOver(String workerId, int heartbeatIntervalMs) {
        return new LeaderHandOver(context, CLUSTER, workerId, clockMs::get, heartbeatIntervalMs, host);
    }

    /** Runs {@code action} on the hand-over's context and waits for its value. */
    private <T> T on(Supplier<T> action) {
        Promise<T> p = Promise.promise();
        context.runOnContext(v -> p.complete(action.get()));
        return result(p.future(), WAIT);
    }

    /** The successor's endpoint as a recorder: take-over requests are kept, to be answered by the test. */
    private List<Message<JsonObject>> successorEndpoint(String workerId) {
        List<Message<JsonObject>> asked = new CopyOnWriteArrayList<>();
        result(vertx.eventBus().<JsonObject>consumer(CoordinatorWire.address(CLUSTER, workerId), asked::add)
                .completion(), WAIT);
        return asked;
    }

    /** The worker's endpoint handing take-over requests to {@code handOver}, on its context (as the host does). */
    private void endpoint(String workerId, LeaderHandOver handOver) {
        Promise<Void> registered = Promise.promise();
        context.runOnContext(v -> vertx.eventBus().<JsonObject>consumer(CoordinatorWire.address(CLUSTER, workerId),
                handOver::takeOver).completion().onComplete(registered));
        result(registered.future(), WAIT);
    }

    private Future<JsonObject> askTakeOver(String to, String from) {
        return vertx.eventBus().<JsonObject>request(CoordinatorWire.address(CLUSTER, to), new JsonObject()
                .put(CoordinatorWire.OP, CoordinatorWire.TAKE_OVER).put("from", from)).map(Message::body);
    }

    /** A host that leads until told otherwise and records what the hand-over made it do; touched on the context. */
    private static final class RecordingHost implements LeaderHandOver.Host {
        volatile LeaderRole role = LeaderRole.LEADER;
        volatile long epoch = 3;
        volatile Function<String, Future<Void>> claim = from -> Future.succeededFuture();
        final List<String> resigned = new CopyOnWriteArrayList<>();
        final List<String> claimsFrom = new CopyOnWriteArrayList<>();

        @Override
        public LeaderRole role() {
            return role;
        }

        @Override
        public long leaderEpoch() {
            return epoch;
        }

        @Override
        public void resign(String why) {
            resigned.add(why);
            role = LeaderRole.RESIGNED;
        }

        @Override
        public Future<Void> claimHandedOver(String from) {
            claimsFrom.add(from);
            return claim.apply(from);
        }
    }
}
