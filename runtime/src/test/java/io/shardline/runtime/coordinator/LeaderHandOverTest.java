package io.shardline.runtime.coordinator;

import static io.shardline.runtime.testing.Await.result;
import static io.shardline.runtime.testing.Await.until;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.member.MemberShardsPort;
import io.shardline.runtime.member.MemberVerticle;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.runtime.shard.RuntimeShardRedis;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.store.MetadataKeys;
import io.shardline.runtime.store.RecordCodec;
import io.shardline.runtime.store.RedisGroupLog;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A graceful stop of the leader (docs/reliability.md, History: rolling restarts gave duplicates because members on the other workers
 * fenced themselves while leadership moved). Three coordinator hosts and their members on one Vert.x, over a real
 * Redis, with cluster views set by hand: the leader's own member leaves, the leader hands over to the next oldest
 * worker, and only then leaves the view. No other member may lose its lease at any point.
 */
@RedisTest
class LeaderHandOverTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** A hand-over timeout longer than WAIT: a hand-over that ends before it was ended by something else. */
    private static final long HAND_OVER_TIMEOUT_MS = 3 * WAIT.toMillis();
    private static final int SESSION_MS = 3_000;
    private static final int HEARTBEAT_MS = 300;

    private final LongSupplier clockMs = () -> System.nanoTime() / 1_000_000;
    private final String cluster = "handover-" + UUID.randomUUID();
    private final AtomicReference<List<ClusterMember>> members = new AtomicReference<>();
    private final Map<String, ClusterMember> workers = Map.of(
            "w1", new ClusterMember("n1", "w1", "127.0.0.1:1", Map.of()),
            "w2", new ClusterMember("n2", "w2", "127.0.0.1:2", Map.of()),
            "w3", new ClusterMember("n3", "w3", "127.0.0.1:3", Map.of()));
    private Vertx vertx;
    private RedisClient redis;
    private final Map<String, CoordinatorVerticle> hosts = new TreeMap<>();
    private final Map<String, String> deployments = new TreeMap<>();

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(8)), WAIT);
        result(new ShardCommands(new RuntimeShardRedis(redis)).loadLibrary(), WAIT);
        members.set(List.of(workers.get("w1"), workers.get("w2"), workers.get("w3")));
        for (String w : List.of("w1", "w2", "w3")) {
            CoordinatorVerticle host = new CoordinatorVerticle(new CoordinatorHostSettings(cluster, w, redis,
                    new RedisGroupLog(redis, new MetadataKeys(cluster)), new RecordCodec(),
                    new ShardCommands(new RuntimeShardRedis(redis)), AssignorRegistry::builtIn, CoordinatorMetrics.NOOP,
                    clockMs, 100, HEARTBEAT_MS, SESSION_MS));
            deployments.put(w, result(vertx.deployVerticle(host), WAIT));
            hosts.put(w, host);
        }
        publishView();
    }

    @AfterEach
    void stop() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    @Test
    void membersOnOtherWorkersKeepTheirLeasesWhileTheLeaderHandsOver() {
        GroupConfig group = GroupConfig.of("g", Map.of("orders-keep", 6), "range", SESSION_MS, HEARTBEAT_MS);
        RecordingPort p1 = new RecordingPort();
        RecordingPort p2 = new RecordingPort();
        RecordingPort p3 = new RecordingPort();
        MemberVerticle m1 = member("w1", group, p1);
        member("w2", group, p2);
        member("w3", group, p3);
        until(() -> p1.owned.size() == 2 && p2.owned.size() == 2 && p3.owned.size() == 2, WAIT, 20,
                "every member owns two shards");
        assertThat(result(hosts.get("w1").role(), WAIT)).isEqualTo(LeaderRole.LEADER);
        long epochBefore = result(hosts.get("w1").leaderEpoch(), WAIT);

        // Worker w1 stops: its member leaves, the coordinator hands over, then w1 leaves the cluster view.
        result(m1.leave(), WAIT);
        result(hosts.get("w1").handOver(10_000), WAIT);
        assertThat(result(hosts.get("w1").role(), WAIT)).isEqualTo(LeaderRole.RESIGNED);
        assertThat(result(hosts.get("w2").role(), WAIT)).isEqualTo(LeaderRole.LEADER);
        assertThat(result(hosts.get("w2").leaderEpoch(), WAIT)).isGreaterThan(epochBefore);
        members.set(List.of(workers.get("w2"), workers.get("w3")));
        publishView();

        // Two more session timeouts of renewals by the new leader, who also took w1's shards over.
        long later = clockMs.getAsLong() + 2L * SESSION_MS;
        until(() -> p2.deadline() > later && p3.deadline() > later, WAIT, 20, "leases renewed past " + later);
        until(() -> p2.owned.size() + p3.owned.size() == 6, WAIT, 20, "w1's shards reassigned");
        for (RecordingPort p : List.of(p2, p3)) {
            assertThat(p.fenced).as("self-fencing of a member on a surviving worker").isEmpty();
            assertThat(p.longestUnleasedMs()).as("time without a valid lease").isZero();
        }
        assertThat(p1.fenced).isEmpty();
    }

    @Test
    void membersLeaveAHungLeaderForTheNewOneAtOnceWhenTheViewChanges() {
        GroupConfig group = GroupConfig.of("g", Map.of("orders-hung", 4), "range", SESSION_MS, HEARTBEAT_MS);
        RecordingPort p2 = new RecordingPort();
        RecordingPort p3 = new RecordingPort();
        member("w2", group, p2);
        member("w3", group, p3);
        until(() -> p2.owned.size() == 2 && p3.owned.size() == 2, WAIT, 20, "every member owns two shards");

        // w1 hangs (as under SIGSTOP): requests to it are taken and never answered. Once both members have a
        // heartbeat stuck there, w1's Hazelcast membership ends and the view names w2: a member must not wait for
        // its request to w1 to time out (2 s, as long as its whole lease).
        // An interceptor swallows every message to w1's coordinator while that coordinator still runs, so no
        // heartbeat can fail at once (a member whose request failed would rightly ask w2 from then on and never be
        // stuck at w1): a consumer of the test's own beside the coordinator's would only get every other message,
        // and the coordinator's undeploy fails the ones queued for it. w1's coordinator goes (it no longer renews
        // the leader epoch, as a frozen worker would not) once both members are stuck.
        String w1Address = CoordinatorWire.address(cluster, "w1");
        List<String> stuck = new CopyOnWriteArrayList<>();
        vertx.eventBus().addOutboundInterceptor(delivery -> {
            if (!w1Address.equals(delivery.message().address())) {
                delivery.next();
            } else if (delivery.message().body() instanceof JsonObject body) {
                stuck.add(body.getString("memberId"));
            }
        });
        until(() -> stuck.contains("w2-l-m0") && stuck.contains("w3-l-m0"), WAIT, 5, "heartbeats stuck at w1");
        result(vertx.undeploy(deployments.get("w1")), WAIT);
        members.set(List.of(workers.get("w2"), workers.get("w3")));
        publishView();

        long later = clockMs.getAsLong() + 2L * SESSION_MS;
        until(() -> p2.deadline() > later && p3.deadline() > later, WAIT, 20, "leases renewed past " + later);
        for (RecordingPort p : List.of(p2, p3)) {
            assertThat(p.fenced).as("self-fencing while the coordinator moved").isEmpty();
            assertThat(p.longestUnleasedMs()).as("time without a valid lease").isZero();
            assertThat(p.owned).hasSize(2);
        }
    }

    @Test
    void aHandOverToASuccessorThatLeavesTheViewEndsAtOnce() {
        GroupConfig group = GroupConfig.of("g", Map.of("orders-leave", 2), "range", SESSION_MS, HEARTBEAT_MS);
        RecordingPort p3 = new RecordingPort();
        member("w3", group, p3);
        until(() -> p3.owned.size() == 2, WAIT, 20, "the member owns both shards");
        assertThat(result(hosts.get("w1").role(), WAIT)).isEqualTo(LeaderRole.LEADER);

        // Both w1 and its successor w2 stop at once: w2's coordinator is gone (its take-over request is taken and
        // never answered), then w2 leaves the view. w1 must not wait for the request's timeout (its whole stop).
        List<String> takeOvers = new CopyOnWriteArrayList<>();
        result(vertx.undeploy(deployments.get("w2")), WAIT);
        vertx.eventBus().<io.vertx.core.json.JsonObject>consumer(CoordinatorWire.address(cluster, "w2"),
                message -> takeOvers.add(message.body().getString(CoordinatorWire.OP)));
        long started = clockMs.getAsLong();
        var handedOver = hosts.get("w1").handOver(HAND_OVER_TIMEOUT_MS);
        until(() -> takeOvers.contains(CoordinatorWire.TAKE_OVER), WAIT, 5, "take-over asked of w2");
        members.set(List.of(workers.get("w1"), workers.get("w3")));
        publishView();
        result(handedOver, WAIT);
        assertThat(clockMs.getAsLong() - started).as("hand-over ended by the view, not by its %s ms timeout",
                HAND_OVER_TIMEOUT_MS).isLessThan(HAND_OVER_TIMEOUT_MS);
        assertThat(result(hosts.get("w1").role(), WAIT)).isEqualTo(LeaderRole.RESIGNED);
    }

    private MemberVerticle member(String worker, GroupConfig group, RecordingPort port) {
        MemberVerticle m = new MemberVerticle(cluster, worker + "-l-m0", group, port,
                () -> new LeaderView(members.get(), workers.get(worker)), clockMs, HEARTBEAT_MS, 20);
        result(vertx.deployVerticle(m), WAIT);
        return m;
    }

    private void publishView() {
        hosts.forEach((w, host) -> {
            if (members.get().contains(workers.get(w))) {
                host.onViewChange(new LeaderView(members.get(), workers.get(w)));
            }
        });
    }

    /** A member's shards as the heartbeat loop drives them, with every lease deadline it was told and when. */
    private final class RecordingPort implements MemberShardsPort {
        final List<ShardId> owned = new CopyOnWriteArrayList<>();
        final List<String> fenced = new CopyOnWriteArrayList<>();
        final List<long[]> leases = new CopyOnWriteArrayList<>();

        @Override
        public Future<Void> acquire(ShardId shard, long ownerEpoch) {
            owned.add(shard);
            return Future.succeededFuture();
        }

        @Override
        public Future<Void> release(ShardId shard) {
            owned.remove(shard);
            return Future.succeededFuture();
        }

        @Override
        public Future<Void> fenceAll() {
            fenced.add(new ArrayList<>(owned).toString());
            owned.clear();
            return Future.succeededFuture();
        }

        @Override
        public void leaseUntil(long deadlineMs) {
            leases.add(new long[] {clockMs.getAsLong(), deadlineMs});
        }

        long deadline() {
            return leases.isEmpty() ? Long.MIN_VALUE : leases.get(leases.size() - 1)[1];
        }

        /** The longest time, once it first held a lease, that the member was told a deadline already passed. */
        long longestUnleasedMs() {
            long longest = 0;
            long previous = Long.MIN_VALUE;
            for (long[] l : leases) {
                if (previous != Long.MIN_VALUE && l[0] >= previous) {
                    longest = Math.max(longest, l[0] - previous);
                }
                if (l[1] != Long.MIN_VALUE) {
                    previous = Math.max(previous, l[1]);
                }
            }
            return longest;
        }
    }
}
