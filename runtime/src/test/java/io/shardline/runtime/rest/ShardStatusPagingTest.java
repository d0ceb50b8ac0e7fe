package io.shardline.runtime.rest;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.runtime.control.ShardPage;
import io.shardline.runtime.redis.MonitoringReads;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.runtime.rest.RestHarness.Reply;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.ListenerStatus;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.ShardStatus;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Status reads of a listener with many shards over a real Redis (docs/reliability.md, "Overload"): a REST status
 * answer is a page ({@code ?offset&limit}, 400 naming the limit beyond {@link ShardPage#MAX_LIMIT}); the shards are
 * read on the monitoring connection only (the pool of the coordinator's and consumers' commands sees none of them),
 * never more than {@code redis.monitoring.in.flight} at once; concurrent reads of the same shards share one read;
 * and a worker's sampler reads only the shards it exports.
 */
@RedisTest
class ShardStatusPagingTest {

    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    private static final int SHARDS = 2_500;
    private static final String BIG = """
            {"name": "big", "config": {"handler": "configured", "streams": "big:2500", "group": "big",
             "handler.config.prefix": "p-"}}""";
    /** Commands outside the shard reads (the listener's config, the target states): a handful, not per shard. */
    private static final long CONTROL_COMMANDS = 50;

    private RestHarness rest;

    @BeforeEach
    void start(RedisServer redis) {
        rest = new RestHarness(redis.uri(), "paging" + CLUSTERS.incrementAndGet(), RestSettings.loopback(0));
        result(rest.redis.send(Request.cmd(Command.FLUSHALL)), RestHarness.WAIT);
        assertEquals(201, rest.call(HttpMethod.POST, "/listeners", BIG).status());
    }

    @AfterEach
    void stop() {
        rest.close();
    }

    @Test
    void statusIsAPageReadOnTheMonitoringConnectionWithinItsBudget() {
        MonitoringReads reads = rest.redis.monitoring();
        long pooled = rest.redis.pooledCommands();
        long monitored = reads.commands();

        JsonObject first = rest.call(HttpMethod.GET, "/listeners/big/status").json();
        assertEquals(SHARDS, first.getInteger("shards_total"));
        assertEquals(0, first.getInteger("shards_offset"));
        assertEquals(ShardPage.DEFAULT_LIMIT, first.getJsonArray("shards").size());
        JsonObject last = rest.call(HttpMethod.GET, "/listeners/big/status?offset=2000&limit=10000").json();
        assertEquals(500, last.getJsonArray("shards").size());
        assertEquals(2000, last.getJsonArray("shards").getJsonObject(0).getInteger("shard"));
        assertEquals(0, rest.call(HttpMethod.GET, "/listeners/big/status?offset=3000").json()
                .getJsonArray("shards").size());

        // 1,500 shards read in script calls of 64 shards each, none of them through the pool.
        assertCalls(reads.commands() - monitored, calls(ShardPage.DEFAULT_LIMIT) + calls(500));
        assertThat(rest.redis.pooledCommands() - pooled).isLessThan(CONTROL_COMMANDS);
        assertThat(reads.mostInFlight()).isBetween(1, RedisConfig.MONITORING_IN_FLIGHT_DEFAULT);
        assertEquals(0, reads.refused());
        assertEquals(0, rest.redis.poolRefused());

        Reply tooLarge = rest.call(HttpMethod.GET, "/listeners/big/status?limit=10001");
        assertEquals(400, tooLarge.status(), tooLarge::toString);
        assertThat(tooLarge.json().getString("message")).contains("limit", "10000");
        assertEquals(400, rest.call(HttpMethod.GET, "/listeners/big/status?offset=-1").status());
        JsonObject expanded = rest.call(HttpMethod.GET, "/listeners?expand=status").json()
                .getJsonObject("big").getJsonObject("status");
        assertEquals(SHARDS, expanded.getInteger("shards_total"));
        assertEquals(ShardPage.DEFAULT_LIMIT, expanded.getJsonArray("shards").size());
    }

    @Test
    void concurrentReadsOfTheSameShardsShareOneRead() {
        MonitoringReads reads = rest.redis.monitoring();
        long before = reads.commands();
        Future<ListenerStatus> a = rest.plane.listenerStatus("big");
        Future<ListenerStatus> b = rest.plane.listenerStatus("big");
        assertEquals(SHARDS, result(a, RestHarness.WAIT).shards().size());
        assertEquals(SHARDS, result(b, RestHarness.WAIT).shards().size());
        assertCalls(reads.commands() - before, calls(SHARDS));

        // A write that changes what a status shows makes the next read go to Redis again.
        assertEquals(202, rest.call(HttpMethod.PUT, "/listeners/big/stop").status());
        ListenerStatus stopped = result(rest.plane.listenerStatus("big"), RestHarness.WAIT);
        assertEquals(ListenerState.STOPPED, stopped.state());
        assertCalls(reads.commands() - before, 2 * calls(SHARDS));
    }

    /** Script calls that read {@code shards} shards on a single Redis: 64 shards a call. */
    private static long calls(int shards) {
        return (shards + 63) / 64;
    }

    /**
     * {@code commands} is {@code calls} script calls, plus at most one chunk's calls (256 shards: 4) sent again as
     * {@code EVAL} when Redis did not have the script yet ({@code NOSCRIPT}).
     */
    private static void assertCalls(long commands, long calls) {
        assertThat(commands).as("status read commands").isBetween(calls, calls + 4);
    }

    @Test
    void aWorkersSamplerReadsOnlyTheShardsItExports() {
        rest.cluster.members.put("big", List.of(
                new MemberStatus("worker-a-big-m0", "worker-a", ListenerState.RUNNING, 3, List.of("big:0", "big:1"),
                        null),
                new MemberStatus("worker-b-big-m0", "worker-b", ListenerState.RUNNING, 3, List.of("big:2"), null)));
        long pooled = rest.redis.pooledCommands();

        List<ShardStatus> a = result(rest.plane.sampledStatuses("worker-a", false), RestHarness.WAIT).get("big")
                .shards();
        assertEquals(List.of(0, 1), a.stream().map(ShardStatus::shard).toList());
        List<ShardStatus> leader = result(rest.plane.sampledStatuses("worker-b", true), RestHarness.WAIT).get("big")
                .shards();
        assertEquals(SHARDS - 2, leader.size());
        assertEquals(2, leader.get(0).shard());
        assertEquals(SHARDS - 1, leader.get(leader.size() - 1).shard());
        assertThat(rest.redis.pooledCommands() - pooled).isLessThan(CONTROL_COMMANDS);
    }
}
