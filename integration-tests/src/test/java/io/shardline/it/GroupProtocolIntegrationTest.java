package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Static membership and eager groups, reached through listener keys, on three worker processes that are restarted
 * one after the other (SIGTERM, then started again with the same worker id). Three groups on the same workers:
 * {@code orders} with {@code static.membership=true} moves no shard (the audit trail grants each shard only to its
 * owner before the restarts) and every record is handled; {@code payments}, dynamic, moves shards as members
 * leave and come back; {@code audits}, with {@code rebalance.protocol=eager}, makes members that stay revoke their
 * shards too (a cooperative group never does).
 *
 * <p>Tagged {@code integration}. Run it alone with {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=GroupProtocolIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class GroupProtocolIntegrationTest {

    private static final int SHARDS = 6;
    /** Long enough for a worker JVM to stop and start again on a busy machine: the static reservation lasts this. */
    private static final int SESSION_MS = 90_000;
    private static final Duration JOIN = Duration.ofSeconds(150);
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final String TOKEN = "it-protocol-token";

    private ItFleet fleet;
    private StreamProducer producer;

    @AfterEach
    void stopAll() {
        if (producer != null) {
            producer.close();
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void aRollingRestartMovesNoShardOfAStaticGroup(RedisServer redis) throws Exception {
        fleet = ItFleet.create("proto");
        List<Integer> ports = FreePorts.take(6);
        fleet.listener("orders", "handler=logging-sink", "handler.config.log.every=1000", "streams=orders:" + SHARDS,
                "group=orders", "assignor=cooperative-sticky", "start.from=earliest", "static.membership=true");
        fleet.listener("payments", "handler=logging-sink", "handler.config.log.every=1000",
                "streams=payments:" + SHARDS, "group=payments", "assignor=cooperative-sticky");
        fleet.listener("audits", "handler=logging-sink", "handler.config.log.every=1000", "streams=audits:" + SHARDS,
                "group=audits", "assignor=sticky", "rebalance.protocol=eager");
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 3));
        common.put("cluster.failure.timeout.ms", "3000");
        common.put("redis.url", redis.uri());
        common.put("session.timeout.ms", Integer.toString(SESSION_MS));
        common.put("heartbeat.interval.ms", "500");
        common.put("rebalance.timeout.ms", "20000");
        common.put("rest.auth.token", TOKEN);
        ClusterProbe probe = new ClusterProbe(redis);
        List<WorkerProcess> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            WorkerProcess w = fleet.start("w" + i, ItFleet.withPorts(common, ports.get(i), ports.get(3 + i)));
            w.await("joined cluster", JOIN);
            workers.add(w);
        }
        RestClient first = new RestClient(ports.get(3), TOKEN);
        for (String group : List.of("orders", "payments", "audits")) {
            probe.awaitOwners(group, SHARDS, o -> workersOf(o).size() == 3, SETTLE, group + " over three workers");
            // Owners on three workers can still be a rebalance in progress (a shard on its way from one joined
            // worker to the last): the owners before the restarts are those of a settled assignment.
            awaitStable(first, group, group + " settled on its three members before the restarts");
        }
        Map<Integer, ClusterProbe.Owner> before = probe.owners("orders", SHARDS);
        Map<Integer, ClusterProbe.Owner> paymentsBefore = probe.owners("payments", SHARDS);
        Map<Integer, ClusterProbe.Owner> auditsBefore = probe.owners("audits", SHARDS);
        long since = lastAuditTime(first);
        producer = StreamProducer.start(redis, "orders", SHARDS, 5);

        // Restart every worker in turn, waiting for its members to be back before the next one.
        for (int i = 0; i < 3; i++) {
            WorkerProcess old = workers.get(i);
            old.terminate();
            assertEquals(0, old.waitExit(Duration.ofSeconds(60)), "graceful stop of " + old.workerId + "\n" + old.tail());
            WorkerProcess again = fleet.start(old.workerId + "-again", old.workerId,
                    ItFleet.withPorts(common, ports.get(i), ports.get(3 + i)));
            again.await("joined cluster", JOIN);
            workers.set(i, again);
            awaitStable(new RestClient(ports.get(3 + (i + 1) % 3), TOKEN), "orders",
                    "orders back on its three members after restarting " + old.workerId);
            assertThat(sameMembers(before, probe.owners("orders", SHARDS))).as("orders owners").isTrue();
        }
        producer.stop();
        probe.awaitDrained("orders", "orders", SHARDS, SETTLE);

        RestClient rest = new RestClient(ports.get(4), TOKEN);
        List<JsonObject> orders = auditSince(rest, "orders", since);
        assertThat(orders).as("orders audit").anyMatch(e -> e.getString("type").equals("MEMBER_LEFT_STATIC"));
        for (JsonObject e : orders) {
            assertThat(e.getString("type")).as("static group: %s", e).isNotEqualTo("SHARD_REVOKE_REQUESTED");
            if (e.getString("type").equals("SHARD_GRANTED")) {
                assertThat(e.getString("member_id")).as("static group reassigned a shard: %s", e)
                        .isEqualTo(before.get(shardIndex(e)).member());
            }
        }
        assertThat(auditSince(rest, "payments", since)).as("the dynamic group moved shards").anyMatch(e ->
                e.getString("type").equals("SHARD_GRANTED")
                        && !e.getString("member_id").equals(paymentsBefore.get(shardIndex(e)).member()));
        // Eager: when w0's members left, members on w1 and w2 revoked shards they owned, though they kept them.
        assertThat(auditSince(rest, "audits", since)).as("the eager group revoked shards of members that stayed")
                .anyMatch(e -> e.getString("type").equals("SHARD_REVOKE_REQUESTED")
                        && !ClusterProbe.workerOf(new ClusterProbe.Owner(e.getString("member_id"), 0)).equals("w0")
                        && e.getString("member_id").equals(auditsBefore.get(shardIndex(e)).member()));
    }

    private static java.util.Set<String> workersOf(Map<Integer, ClusterProbe.Owner> owners) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        owners.values().forEach(o -> out.add(ClusterProbe.workerOf(o)));
        return out;
    }

    private static boolean sameMembers(Map<Integer, ClusterProbe.Owner> a, Map<Integer, ClusterProbe.Owner> b) {
        for (Map.Entry<Integer, ClusterProbe.Owner> e : a.entrySet()) {
            ClusterProbe.Owner other = b.get(e.getKey());
            if (other == null || !other.member().equals(e.getValue().member())) {
                return false;
            }
        }
        return true;
    }

    /** Waits until the group has three STABLE members that process every shard between them. */
    private static void awaitStable(RestClient rest, String group, String what) {
        long end = System.nanoTime() + SETTLE.toNanos();
        RestClient.Reply last = null;
        while (System.nanoTime() < end) {
            last = rest.call("GET", "/groups/" + group, null, true);
            if (last.status() == 200) {
                var members = last.json().getJsonArray("members");
                int current = 0;
                boolean stable = members.size() == 3;
                for (Object o : members) {
                    JsonObject m = (JsonObject) o;
                    stable &= "STABLE".equals(m.getString("state"));
                    current += m.getJsonArray("current").size();
                }
                if (stable && current == SHARDS) {
                    return;
                }
            }
            WorkerProcess.pause(100);
        }
        throw new AssertionError("timed out waiting for " + what + "; last answer " + last);
    }

    private static long lastAuditTime(RestClient rest) {
        long last = 0;
        for (String group : List.of("orders", "payments", "audits")) {
            for (Object o : rest.getArray("/groups/" + group + "/audit?limit=1000")) {
                last = Math.max(last, ((JsonObject) o).getLong("time_ms"));
            }
        }
        return last;
    }

    private static List<JsonObject> auditSince(RestClient rest, String group, long since) {
        List<JsonObject> out = new ArrayList<>();
        for (Object o : rest.getArray("/groups/" + group + "/audit?limit=1000")) {
            JsonObject e = (JsonObject) o;
            if (e.getLong("time_ms") > since) {
                out.add(e);
            }
        }
        return out;
    }

    private static int shardIndex(JsonObject event) {
        String shard = event.getString("shard");
        return Integer.parseInt(shard.substring(shard.lastIndexOf(':') + 1));
    }
}
