package io.shardline.runtime.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.coordinator.CoordinatorWire;
import io.shardline.runtime.coordinator.ReadModelWire;
import io.shardline.runtime.metrics.ListenerHistory;
import io.shardline.runtime.rest.entity.GroupView;
import io.shardline.runtime.rest.entity.HistoryPoint;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.WorkerInfo;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WorkerClusterView} against {@link ControlEndpoint}s of two workers and a stand-in coordinator on one
 * (local) event bus: answers are merged across workers, a worker without an endpoint is reported rather than
 * failing the request, and the read model comes from the leader's coordinator address.
 */
class WorkerClusterViewTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private Vertx vertx;
    private WorkerClusterView view;
    private final FakeLocal w1 = new FakeLocal("w1");
    private final FakeLocal w2 = new FakeLocal("w2");
    private final ListenerHistory h1 = new ListenerHistory();
    private final ListenerHistory h2 = new ListenerHistory();
    private final AtomicReference<JsonObject> coordinatorReply = new AtomicReference<>();

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        await(ControlEndpoint.start(vertx, "c", "w1", w1, h1));
        await(ControlEndpoint.start(vertx, "c", "w2", w2, h2));
        await(vertx.eventBus().<JsonObject>consumer(CoordinatorWire.address("c", "w1"), m -> {
            JsonObject body = m.body();
            if (!"orders".equals(body.getString("groupId"))) {
                m.reply(new JsonObject().put("error", ErrorCode.GROUP_NOT_FOUND.code()));
            } else {
                m.reply(coordinatorReply.get().copy().put("op", body.getString(CoordinatorWire.OP)));
            }
        }).completion());
        ClusterMember m1 = new ClusterMember("n1", "w1", "127.0.0.1:1", Map.of());
        ClusterMember m2 = new ClusterMember("n2", "w2", "127.0.0.1:2", Map.of());
        ClusterMember m3 = new ClusterMember("n3", "w3", "127.0.0.1:3", Map.of());
        LeaderView leaderView = new LeaderView(List.of(m1, m2, m3), m1);
        view = new WorkerClusterView(vertx, "c", "w1", () -> leaderView, List.of(), 500);
    }

    @AfterEach
    void stop() throws Exception {
        await(vertx.close());
    }

    @Test
    void membersAreMergedAndASilentWorkerIsReported() throws Exception {
        MemberReport report = await(view.members("orders"));
        assertThat(report.members()).extracting(MemberStatus::id).containsExactlyInAnyOrder("w1-orders-m0", "w2-orders-m0");
        assertThat(report.members()).extracting(MemberStatus::shards)
                .containsExactlyInAnyOrder(List.of("orders:0"), List.of("orders:1"));
        assertThat(report.unanswered()).containsExactly("w3");
        assertThat(await(view.members("other")).members()).isEmpty();
    }

    @Test
    void workersListEveryWorkerWithItsListenersOrAnError() throws Exception {
        List<WorkerInfo> workers = await(view.workers());
        assertThat(workers).extracting(WorkerInfo::id).containsExactly("w1", "w2", "w3");
        assertThat(workers.get(0).leader()).isTrue();
        assertThat(workers.get(1).listeners()).containsExactly("orders");
        assertThat(workers.get(1).members()).containsExactly("w2-orders-m0");
        assertThat(workers.get(1).error()).isNull();
        assertThat(workers.get(1).version()).isEqualTo(io.shardline.runtime.config.Version.current());
        assertThat(workers.get(1).uptimeMs()).isPositive();
        assertThat(workers.get(2).version()).isNull();
        assertThat(workers.get(2).error()).contains("worker w3 did not answer within 500 ms");
    }

    @Test
    void historyAddsUpEveryWorkersShareByInterval() throws Exception {
        // w1 handled 50 records in 5 s with lag 7; w2 handled 25 and dead-lettered 5 with lag 3; w3 is silent.
        h1.record("orders", 10_000, 100, 0, 0);
        h1.record("orders", 15_000, 150, 0, 7);
        h2.record("orders", 10_100, 0, 0, 0);
        h2.record("orders", 15_100, 25, 5, 3);
        HistoryReport report = await(view.history("orders"));
        assertThat(report.points()).containsExactly(new HistoryPoint(15_000, 15.0, 1.0, 10));
        assertThat(report.unanswered()).containsExactly("w3");
        assertThat(await(view.history("unknown")).points()).isEmpty();
    }

    @Test
    void restartIsForwardedToEveryWorker() throws Exception {
        assertThat(await(view.restart("orders", true, true))).containsExactly("w1-orders-m0", "w2-orders-m0");
        assertThat(w1.restarts).containsExactly("orders onlyFailed=true");
        assertThat(w2.restarts).containsExactly("orders onlyFailed=true");
    }

    @Test
    void refreshIsPublishedToEveryWorker() throws Exception {
        view.refresh();
        assertThat(w1.refreshed.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("w1 refreshed").isTrue();
        assertThat(w2.refreshed.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("w2 refreshed").isTrue();
    }

    @Test
    void groupsAreAskedOfTheLeader() throws Exception {
        coordinatorReply.set(new JsonObject().put("error", 0).put("group", new JsonObject().put("group", "orders")
                .put("group_epoch", 3).put("assignment_epoch", 2).put("assignor", "range")
                .put("members", new JsonArray().add(new JsonObject().put("id", "w2-orders-m0").put("worker_id", "w2")
                        .put("state", "STABLE").put("member_epoch", 3).put("current", new JsonArray().add("orders:1"))
                        .put("target", new JsonArray().add("orders:1")).put("pending_revocation", new JsonArray())))));
        GroupView group = await(view.group("orders")).orElseThrow();
        assertThat(group.groupEpoch()).isEqualTo(3);
        assertThat(group.members().get(0).workerId()).isEqualTo("w2");
        assertThat(await(view.group("unknown"))).isEmpty();
    }

    @Test
    void aCoordinatorThatIsNotLeaderYetIsAConflict() throws Exception {
        coordinatorReply.set(new JsonObject().put("error", ErrorCode.NOT_COORDINATOR.code())
                .put("errorMessage", "worker w1 is not the coordinator (role CLAIMING)"));
        Throwable failure = view.group("orders").toCompletionStage().toCompletableFuture()
                .handle((ok, e) -> e).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(failure).isInstanceOf(ControlPlaneException.class).hasMessageContaining("role CLAIMING");
        assertThat(((ControlPlaneException) failure).status()).isEqualTo(409);
    }

    private static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One worker's listeners: listener orders with one member owning one shard. */
    private static final class FakeLocal implements LocalListeners {
        final String worker;
        final List<String> restarts = new CopyOnWriteArrayList<>();
        final CountDownLatch refreshed = new CountDownLatch(1);

        FakeLocal(String worker) {
            this.worker = worker;
        }

        @Override
        public List<String> names() {
            return List.of("orders");
        }

        @Override
        public Future<List<MemberStatus>> members(String listener) {
            if (listener != null && !listener.equals("orders")) {
                return Future.succeededFuture(List.of());
            }
            return Future.succeededFuture(List.of(new MemberStatus(worker + "-orders-m0", worker, ListenerState.RUNNING,
                    2, List.of("orders:" + (worker.equals("w1") ? 0 : 1)), null)));
        }

        @Override
        public Future<List<String>> restartMember(String listener, String memberId) {
            restarts.add(listener + " member=" + memberId);
            return Future.succeededFuture(List.of(memberId));
        }

        @Override
        public Future<List<String>> restart(String listener, boolean onlyFailed) {
            restarts.add(listener + " onlyFailed=" + onlyFailed);
            return Future.succeededFuture(List.of(worker + "-" + listener + "-m0"));
        }

        @Override
        public void refresh() {
            refreshed.countDown();
        }
    }
}
