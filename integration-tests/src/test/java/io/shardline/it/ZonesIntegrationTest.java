package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.StreamDescription;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.assignor.AssignorRegistry;
import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisCluster;
import io.shardline.testkit.redis.RedisClusterTest;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Zones on the test kit's three-node Redis Cluster: node {@code i} is in zone {@code az<i+1>} ({@code redis.zones}),
 * worker {@code w<i>} too ({@code rack}). The rack-aware range assignor then gives the shards exactly as it does for
 * that zone information (not as without it), and {@code GET /groups/{group}} shows each member's zone, each
 * shard's zone and how many shards are zone-local.
 *
 * <p>Tagged {@code integration}. Run it alone with {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=ZonesIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisClusterTest
class ZonesIntegrationTest {

    private static final int SHARDS = 12;
    private static final String TOKEN = "it-zones-token";
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
    void shardsGoToMembersInTheZoneOfTheirNode(RedisCluster redis) throws Exception {
        Map<Integer, String> zoneOfPort = new TreeMap<>();
        List<String> zones = new ArrayList<>();
        for (int i = 0; i < redis.nodes().size(); i++) {
            zoneOfPort.put(redis.node(i).port(), "az" + (i + 1));
            zones.add(redis.node(i).host() + ":" + redis.node(i).port() + "=az" + (i + 1));
        }
        List<Set<String>> shardZones = new ArrayList<>();
        for (int i = 0; i < SHARDS; i++) {
            shardZones.add(Set.of(zoneOfPort.get(redis.ownerOf(new ShardId("orders", i).key()).port())));
        }
        List<String> members = List.of("w0-orders-m0", "w1-orders-m0", "w2-orders-m0");
        Map<String, String> expected = assignment(members, shardZones, true);
        assertThat(expected).as("zones change the range assignment of this cluster's slot layout")
                .isNotEqualTo(assignment(members, shardZones, false));

        fleet = ItFleet.create("zones");
        List<Integer> ports = FreePorts.take(6);
        fleet.listener("orders", "handler=logging-sink", "streams=orders:" + SHARDS, "group=orders", "assignor=range");
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 3));
        common.put("cluster.failure.timeout.ms", "3000");
        common.put("redis.cluster.urls", redis.seedUriList());
        common.put("redis.zones", String.join(",", zones));
        common.put("session.timeout.ms", "4000");
        common.put("heartbeat.interval.ms", "500");
        common.put("rest.auth.token", TOKEN);
        for (int i = 0; i < 3; i++) {
            Map<String, String> settings = ItFleet.withPorts(common, ports.get(i), ports.get(3 + i));
            settings.put("rack", "az" + (i + 1));
            fleet.start("w" + i, settings).await("joined cluster", JOIN);
        }
        ClusterProbe probe = new ClusterProbe(RedisNodes.of(redis));
        probe.awaitOwners("orders", SHARDS, o -> {
            for (int i = 0; i < SHARDS; i++) {
                if (!o.get(i).member().equals(expected.get("orders:" + i))) {
                    return false;
                }
            }
            return true;
        }, SETTLE, "the zone-aware range assignment " + expected);

        JsonObject group = new RestClient(ports.get(4), TOKEN).get("/groups/orders");
        int local = 0;
        for (Object o : group.getJsonArray("members")) {
            JsonObject m = (JsonObject) o;
            String zone = "az" + (Integer.parseInt(m.getString("id").substring(1, 2)) + 1);
            assertThat(m.getString("zone")).as("member %s", m).isEqualTo(zone);
            for (Object s : m.getJsonArray("current")) {
                String shard = (String) s;
                if (shardZones.get(Integer.parseInt(shard.substring(shard.indexOf(':') + 1))).contains(zone)) {
                    local++;
                }
            }
        }
        JsonObject shown = group.getJsonObject("shard_zones");
        for (int i = 0; i < SHARDS; i++) {
            assertThat(shown.getJsonArray("orders:" + i).getList()).as("zones of orders:%s", i)
                    .containsExactlyElementsOf(shardZones.get(i));
        }
        assertThat(group.getInteger("zone_local_shards")).as("group %s", group).isEqualTo(local);
    }

    /** What the built-in range assignor gives, shard {@code stream:i} to member id, with or without zones. */
    private static Map<String, String> assignment(List<String> members, List<Set<String>> shardZones,
                                                  boolean withZones) {
        List<MemberSubscription> specs = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            MemberSubscription m = MemberSubscription.of(members.get(i), List.of("orders"));
            specs.add(withZones ? m.withRack("az" + (i + 1)) : m);
        }
        GroupAssignment result = AssignorRegistry.builtIn("range").assign(new GroupSpec(specs), ShardDescriber.of(
                new StreamDescription("orders", SHARDS, withZones ? shardZones : List.of())));
        Map<String, String> out = new TreeMap<>();
        result.members().forEach((member, a) -> a.shards().forEach((stream, set) -> {
            for (int j = 0; j < set.size(); j++) {
                out.put(stream + ":" + set.get(j), member);
            }
        }));
        return out;
    }
}
