package io.shardline.runtime.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.runtime.testing.Await;
import io.shardline.testkit.net.FreePorts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Two or three in-JVM workers on loopback with a random cluster name: leader = oldest, re-elected on leave. */
@Tag("integration")
class WorkerClusterTest {

    private final List<WorkerCluster> started = new ArrayList<>();

    @AfterEach
    void stopAll() {
        for (WorkerCluster c : started) {
            c.stop(10_000);
        }
    }

    private static List<ClusterSettings> settings(int n) {
        String name = "test-" + UUID.randomUUID();
        List<Integer> ports = FreePorts.take(n);
        List<String> members = ports.stream().map(p -> "127.0.0.1:" + p).toList();
        List<ClusterSettings> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ClusterSettings(name, "w" + i, "127.0.0.1", ports.get(i), members, 5_000, 5_000,
                    Map.of("shardline.rest", "127.0.0.1:" + (9000 + i))));
        }
        return out;
    }

    private WorkerCluster start(ClusterSettings s) {
        WorkerCluster c = WorkerCluster.start(s, 30_000);
        started.add(c);
        return c;
    }

    @Test
    void oldestMemberLeadsAndTheNextOldestTakesOver() {
        List<ClusterSettings> s = settings(3);
        WorkerCluster w0 = start(s.get(0));
        WorkerCluster w1 = start(s.get(1));
        WorkerCluster w2 = start(s.get(2));
        List<LeaderView> seenByW2 = new CopyOnWriteArrayList<>();
        w2.onViewChange(seenByW2::add);
        for (WorkerCluster w : List.of(w0, w1, w2)) {
            Await.until(() -> w.view().size() == 3, Duration.ofSeconds(20), 20, "3 members seen by " + w.settings().workerId());
            assertEquals("w0", w.view().leader().workerId());
            assertEquals("127.0.0.1:9000", w.view().leader().attributes().get("shardline.rest"));
        }
        assertThat(w0.view().isLeader()).isTrue();
        assertThat(w1.view().isLeader()).isFalse();

        w0.stop(10_000);
        started.remove(w0);
        Await.until(() -> w1.view().size() == 2 && w2.view().size() == 2, Duration.ofSeconds(20), 20, "w0 removed");
        assertEquals("w1", w2.view().leader().workerId());
        assertThat(w1.view().isLeader()).isTrue();
        assertThat(seenByW2.get(seenByW2.size() - 1).leader().workerId()).isEqualTo("w1");
    }

    @Test
    void workersStartedAtTheSameMomentFormOneCluster() throws Exception {
        // The first seed forms the cluster without asking anyone (JoinPlan); the others, probing before it listened,
        // ask the seeds for a master and must find it, or else merge with it after the merge delay.
        List<ClusterSettings> s = settings(3);
        ExecutorService starters = Executors.newFixedThreadPool(3);
        try {
            List<Future<WorkerCluster>> starting = new ArrayList<>();
            for (ClusterSettings each : s) {
                starting.add(starters.submit(() -> WorkerCluster.start(each, 30_000)));
            }
            List<WorkerCluster> workers = new ArrayList<>();
            for (Future<WorkerCluster> f : starting) {
                WorkerCluster w = f.get(60, TimeUnit.SECONDS);
                started.add(w);
                workers.add(w);
            }
            // Bound: two merge rounds beyond the joiner's longest wait (JoinPlan: 5 s), with 10 s of slack.
            Duration bound = Duration.ofMillis(2 * s.get(0).mergeDelayMs() + 5_000 + 10_000);
            for (WorkerCluster w : workers) {
                Await.until(() -> w.view().size() == 3, bound, 20,
                        "one cluster of 3 seen by " + w.settings().workerId() + " within two merge delays");
            }
            assertThat(workers).extracting(w -> w.view().leader().workerId()).containsOnly(
                    workers.get(0).view().leader().workerId());
        } finally {
            starters.shutdownNow();
        }
    }

    @Test
    void duplicateWorkerIdIsRefused() {
        List<ClusterSettings> s = settings(2);
        start(s.get(0));
        ClusterSettings clash = new ClusterSettings(s.get(1).clusterName(), "w0", "127.0.0.1", s.get(1).port(),
                s.get(1).members(), 5_000, 5_000, Map.of());
        assertThatThrownBy(() -> start(clash)).isInstanceOf(ClusterStartException.class)
                .hasMessageContaining("worker.id 'w0' is already used");
    }
}
