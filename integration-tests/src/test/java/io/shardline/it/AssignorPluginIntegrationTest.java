package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A custom assignor built at test time ({@code lowest-member}: every shard to the subscriber with the lowest
 * member id, which no built-in does) on the plugin path of three worker processes: {@code GET /plugins} lists it
 * as an assignor, the leader runs it, and after {@code kill -9} of the leader the new leader loads and runs the
 * same plugin (the shards all go to the lowest surviving member, not split as a built-in would).
 *
 * <p>Tagged {@code integration}. Run it alone with {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=AssignorPluginIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class AssignorPluginIntegrationTest {

    private static final int SHARDS = 6;
    private static final Duration JOIN = Duration.ofSeconds(150);
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final String TOKEN = "it-assignor-token";

    private ItFleet fleet;

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void theLeaderAndItsSuccessorRunTheSamePluginAssignor(RedisServer redis) throws Exception {
        fleet = ItFleet.create("asg");
        Path assignors = PluginJars.build("lowest-member-assignor", fleet.dir.resolve("assignor-plugins")).getParent();
        List<Integer> ports = FreePorts.take(6);
        fleet.listener("orders", "handler=logging-sink", "streams=orders:" + SHARDS, "group=orders",
                "assignor=lowest-member", "start.from=earliest");
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 3));
        common.put("plugin.path", common.get("plugin.path") + "," + assignors);
        common.put("cluster.failure.timeout.ms", "3000");
        common.put("redis.url", redis.uri());
        common.put("session.timeout.ms", "4000");
        common.put("heartbeat.interval.ms", "500");
        common.put("rest.auth.token", TOKEN);
        ClusterProbe probe = new ClusterProbe(redis);

        // 1. Three workers, w0 first (the leader): everything on w0's member, the lowest id.
        WorkerProcess w0 = fleet.start("w0", ItFleet.withPorts(common, ports.get(0), ports.get(3)));
        w0.await("joined cluster", JOIN);
        WorkerProcess w1 = fleet.start("w1", ItFleet.withPorts(common, ports.get(1), ports.get(4)));
        assertThat(w1.await("joined cluster", JOIN)).contains("leader w0");
        WorkerProcess w2 = fleet.start("w2", ItFleet.withPorts(common, ports.get(2), ports.get(5)));
        assertThat(w2.await("joined cluster", JOIN)).contains("leader w0");
        RestClient rest1 = new RestClient(ports.get(4), TOKEN);
        awaitGroupMembers(rest1, 3);
        probe.awaitOwners("orders", SHARDS, o -> o.values().stream().allMatch(x -> ClusterProbe.workerOf(x).equals("w0")),
                SETTLE, "every shard on w0 (lowest-member)");

        JsonArray plugins = rest1.getArray("/plugins");
        assertThat(plugins.stream().map(JsonObject.class::cast)
                .filter(p -> "assignor".equals(p.getString("type"))).map(p -> p.getString("alias")).toList())
                .containsExactly("lowest-member");
        JsonObject group = rest1.get("/groups/orders");
        assertThat(group.getString("assignor")).isEqualTo("lowest-member");
        assertThat(group.containsKey("assignor_error")).as("group %s", group).isFalse();

        // 2. kill -9 of the leader: w1 leads, loads the plugin, and gives everything to w1 (now the lowest).
        w0.kill();
        w1.await("Coordinator on w1: CLAIMING -> LEADER", SETTLE);
        probe.awaitOwners("orders", SHARDS, o -> o.values().stream().allMatch(x -> ClusterProbe.workerOf(x).equals("w1")),
                SETTLE, "every shard on w1 after the leader change");
        JsonObject after = new RestClient(ports.get(5), TOKEN).get("/groups/orders");
        assertThat(after.containsKey("assignor_error")).as("group %s", after).isFalse();
        assertThat(w1.find("ASSIGNOR_FAILED")).isEmpty();
    }

    private static void awaitGroupMembers(RestClient rest, int members) {
        long end = System.nanoTime() + SETTLE.toNanos();
        RestClient.Reply last = null;
        while (System.nanoTime() < end) {
            last = rest.call("GET", "/groups/orders", null, true);
            if (last.status() == 200 && last.json().getJsonArray("members").size() == members) {
                return;
            }
            WorkerProcess.pause(100);
        }
        throw new AssertionError("group orders never had " + members + " members; last answer " + last);
    }
}
