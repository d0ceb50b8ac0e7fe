package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisCluster;
import io.shardline.testkit.redis.RedisClusterTest;
import io.shardline.testkit.redis.RedisServer;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two worker JVMs from the built distribution against a real Redis Cluster of three primaries, configured only
 * with {@code redis.cluster.urls}: the listener's eight shards live on all three nodes; the workers elect a
 * leader that does not re-fence while the cluster is stable (the run id it fences on is the primaries' together),
 * no Redis command times out waiting for a pooled connection, the workers split the shards, handle every record
 * produced before and after they joined and answer the shard status over REST; when a node that holds shards but
 * not the group log restarts empty, the leader re-fences and writes every owner key again, and what is produced afterwards is handled; both workers stop gracefully with exit code 0.
 *
 * <p>Tagged {@code integration}, part of the default build (about 40 s: two worker JVM starts). Run it alone
 * with {@code mvn -B -ntp verify -pl integration-tests -am -Dtest=RedisClusterIntegrationTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisClusterTest
class RedisClusterIntegrationTest {

    private static final int SHARDS = 8;
    private static final int PER_SHARD = 25;
    private static final String TOKEN = "it-cluster-token";
    private static final Duration JOIN = Duration.ofSeconds(150);
    private static final Duration SETTLE = Duration.ofSeconds(60);

    private ItFleet fleet;

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void twoWorkersConsumeShardsSpreadOverThreeNodes(RedisCluster redis) throws Exception {
        Set<Integer> nodes = IntStream.range(0, SHARDS)
                .mapToObj(i -> redis.ownerOf(new ShardId("orders", i).key()).port())
                .collect(Collectors.toSet());
        assertThat(nodes).as("the shards live on all three primaries").hasSize(3);

        fleet = ItFleet.create("rc");
        String cluster = fleet.cluster;
        System.out.println("Redis Cluster " + redis.seedUris());
        List<Integer> ports = FreePorts.take(4);
        fleet.listener("orders", "handler=logging-sink", "handler.config.log.every=1000", "streams=orders:" + SHARDS,
                "group=orders", "concurrency=1", "assignor=cooperative-sticky", "start.from=earliest");
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 2));
        common.put("cluster.failure.timeout.ms", "3000");
        common.put("redis.cluster.urls", redis.seedUriList());
        common.put("session.timeout.ms", "4000");
        common.put("heartbeat.interval.ms", "500");
        common.put("rest.auth.token", TOKEN);
        RedisNodes nodesByKey = RedisNodes.of(redis);
        ClusterProbe probe = new ClusterProbe(nodesByKey);

        StreamProducer.produce(nodesByKey, "orders", SHARDS, PER_SHARD);
        WorkerProcess w0 = fleet.start("w0", ItFleet.withPorts(common, ports.get(0), ports.get(2)));
        w0.await("joined cluster", JOIN);
        WorkerProcess w1 = fleet.start("w1", ItFleet.withPorts(common, ports.get(1), ports.get(3)));
        assertThat(w1.await("joined cluster", JOIN)).contains("2 worker(s)");
        probe.awaitOwners("orders", SHARDS, o -> o.values().stream().map(ClusterProbe::workerOf)
                .collect(Collectors.toSet()).equals(Set.of("w0", "w1")), SETTLE, "orders split over w0 and w1");
        StreamProducer.produce(nodesByKey, "orders", SHARDS, PER_SHARD);
        probe.awaitDrained("orders", "orders", SHARDS, SETTLE);

        // A status read Redis does not answer in time is a 503 (seen once on this cluster client at load 1.3:
        // one HGETALL past its 2 s timeout); ask again until the deadline rather than fail on one slow read.
        JsonObject status = statusWithin(new RestClient(ports.get(3), TOKEN), SETTLE);
        assertThat(status.getJsonArray("shards")).as("status %s", status).hasSize(SHARDS);
        for (Object o : status.getJsonArray("shards")) {
            assertThat(((JsonObject) o).getString("owner")).as("shard owner in %s", status).isNotNull();
        }
        // The leader never saw a "restarted" Redis (the run ids of the primaries), so it never re-fenced; no
        // command waited for a pooled connection until it timed out.
        for (WorkerProcess w : fleet.workers()) {
            assertThat(w.find("Redis restarted")).as("Redis restart seen by %s", w.workerId).isEmpty();
            assertThat(w.find("re-fencing")).as("re-fencing on %s", w.workerId).isEmpty();
            assertThat(w.find("did not complete within")).as("Redis command timeout on %s", w.workerId).isEmpty();
            assertThat(w.find("Function not found")).as("function missing on %s", w.workerId).isEmpty();
        }

        // A node holding shards but not the group log restarts empty (owner keys, streams and groups gone): the
        // leader sees the primaries' run ids change, re-fences and writes every owner key again, the members
        // recreate their groups, and what is produced afterwards is handled.
        RedisServer home = redis.ownerOf("{shardline:" + cluster + "}");
        RedisServer restarted = redis.nodes().stream().filter(n -> n != home).findFirst().orElseThrow();
        restarted.kill();
        restarted.startAgain();
        redis.awaitHealthy(SETTLE);
        probe.awaitOwners("orders", SHARDS, o -> true, SETTLE, "every shard's owner key back after the restart");
        assertThat(fleet.workers().stream().anyMatch(w -> w.find("Redis restarted").isPresent()))
                .as("a new Redis identity seen").isTrue();
        StreamProducer.produce(nodesByKey, "orders", SHARDS, PER_SHARD);
        probe.awaitDrained("orders", "orders", SHARDS, SETTLE);

        w1.terminate();
        w0.terminate();
        assertThat(w1.waitExit(Duration.ofSeconds(30))).as("w1 exit\n%s", w1.tail()).isZero();
        assertThat(w0.waitExit(Duration.ofSeconds(30))).as("w0 exit\n%s", w0.tail()).isZero();
    }

    private static JsonObject statusWithin(RestClient rest, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            RestClient.Reply reply = rest.call("GET", "/listeners/orders/status", (JsonObject) null, true);
            if (reply.status() == 200 || System.nanoTime() > deadline) {
                assertThat(reply.status()).as("GET /listeners/orders/status: %s", reply.body()).isEqualTo(200);
                return reply.json();
            }
            WorkerProcess.pause(200);
        }
    }
}
