package io.shardline.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.testkit.net.FreePorts;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.redis.RespProbe;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Overload stays local (docs/reliability.md, "Overload"): a STOPPED listener with 100,000 shards (the documented
 * maximum, every shard with its Redis consumer group) beside a live listener on one worker from the distribution.
 * The leader's metrics sampler reads all 100,000 unowned shards, and status requests ask for them, yet over several
 * sampler periods after that read the leader keeps its one leader epoch, {@code /health} stays 200 and the live
 * listener's records are handled; a status answer is a bounded page ({@code ?offset&limit}, 400 naming the limit
 * beyond it); and the worker's gauges show that no command of the shared pool was refused, that the monitoring
 * reads never had more than {@code redis.monitoring.in.flight} in flight and that none was refused.
 *
 * <p>Prints {@code FIGURE} lines: the time to create the 100,000 consumer groups, and how long the sampler's read of
 * the 100,000 shards took. Tagged {@code integration}. Run it alone with {@code mvn -B -ntp verify
 * -pl integration-tests -am -Dtest=OverloadIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class OverloadIntegrationTest {

    private static final int BIG = 100_000;
    private static final int LIVE = 4;
    private static final String TOKEN = "it-overload-token";
    private static final Duration JOIN = Duration.ofSeconds(150);
    /** The sampler's period (ListenerHistory.INTERVAL_MS); the worker samples every this often at most. */
    private static final long SAMPLE_MS = 5_000;
    /** Sampler periods watched after the first full read of the big listener. */
    private static final int PERIODS = 4;
    /** Status and lag reads in flight (the default of redis.monitoring.in.flight). */
    private static final int IN_FLIGHT = 16;
    /** Sampler: one script call per 64 shards (ShardStatusReader), so a full read of the big listener sends this many. */
    private static final long FULL_READ_COMMANDS = (BIG + 63) / 64;
    /** A full read of 100,000 shards at 16 in flight on a loaded machine; generous, it is not a figure. */
    private static final Duration FULL_READ = Duration.ofSeconds(240);
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final Pattern GAUGE = Pattern.compile("(?m)^(shardline_redis_[a-z_]+) ([0-9.eE+-]+)$");

    private ItFleet fleet;

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void aHundredThousandShardListenerNeverTakesTheLeaderDown(RedisServer redis) throws Exception {
        long created = createGroups(redis);
        System.out.println("FIGURE overload.create_100k_groups_ms=" + created);

        fleet = ItFleet.create("overload");
        List<Integer> ports = FreePorts.take(2);
        fleet.listener("live", "handler=logging-sink", "handler.config.log.every=1000", "streams=live:" + LIVE,
                "group=live", "concurrency=1", "start.from=earliest");
        Map<String, String> common = fleet.commonSettings(ports.subList(0, 1));
        common.put("redis.url", redis.uri());
        common.put("rest.auth.token", TOKEN);
        RestClient rest = new RestClient(ports.get(1), TOKEN);
        ClusterProbe probe = new ClusterProbe(redis);
        WorkerProcess worker = fleet.start("w0", ItFleet.withPorts(common, ports.get(0), ports.get(1)));
        worker.await("joined cluster", JOIN);
        worker.await("-> LEADER", JOIN);
        StreamProducer.produce(redis, "live", LIVE, 10);
        probe.awaitDrained("live", "live", LIVE, SETTLE);

        // The big listener, STOPPED from the start: nothing owns its shards, so the leader samples all of them.
        JsonObject config = new JsonObject().put("handler", "logging-sink").put("streams", "big:" + BIG)
                .put("group", "big").put("concurrency", "1");
        RestClient.Reply createdBig = rest.call("POST", "/listeners", new JsonObject().put("name", "big")
                .put("config", config).put("initial_state", "STOPPED"), true);
        assertThat(createdBig.status()).as(createdBig.body()).isEqualTo(201);
        long commandsBefore = gauges(rest).get("shardline_redis_monitoring_commands").longValue();
        long readStart = System.nanoTime();
        long deadline = System.nanoTime() + FULL_READ.toNanos();
        while (gauges(rest).get("shardline_redis_monitoring_commands").longValue() - commandsBefore
                < FULL_READ_COMMANDS) {
            assertThat(System.nanoTime()).as("the sampler did not read the %d unowned shards of listener big "
                    + "(%d monitoring reads) within %s", BIG, FULL_READ_COMMANDS, FULL_READ).isLessThan(deadline);
            assertThat(rest.call("GET", "/health", null, true).status()).as("/health while sampling").isEqualTo(200);
            WorkerProcess.pause(200);
        }
        System.out.println("FIGURE overload.sample_100k_shards_ms=" + (System.nanoTime() - readStart) / 1_000_000);
        System.out.println("FIGURE overload.load_average=" + java.nio.file.Files.readString(
                java.nio.file.Path.of("/proc/loadavg")).split(" ")[0]);

        // Several sampler periods: health, pages, and the live listener's records, all the time.
        long until = System.nanoTime() + Duration.ofMillis(PERIODS * SAMPLE_MS).toNanos();
        int rounds = 0;
        while (System.nanoTime() < until || rounds < PERIODS) {
            RestClient.Reply health = rest.call("GET", "/health", null, true);
            assertThat(health.status()).as("/health during sampler period %d: %s", rounds, health.body())
                    .isEqualTo(200);
            int offset = rounds * 1_000 % BIG; // pages through the listener, again from its start when done
            JsonObject page = rest.get("/listeners/big/status?offset=" + offset);
            assertThat(page.getInteger("shards_total")).isEqualTo(BIG);
            assertThat(page.getInteger("shards_offset")).isEqualTo(offset);
            assertThat(page.getJsonArray("shards")).hasSize(1_000);
            assertThat(page.getString("state")).isEqualTo("STOPPED");
            StreamProducer.produce(redis, "live", LIVE, 5);
            probe.awaitDrained("live", "live", LIVE, SETTLE);
            rounds++;
        }

        // The end of the shards, and a page too large is refused naming the limit.
        JsonObject last = rest.get("/listeners/big/status?offset=" + (BIG - 10) + "&limit=10000");
        assertThat(last.getJsonArray("shards")).hasSize(10);
        assertThat(last.getJsonArray("shards").getJsonObject(9).getInteger("shard")).isEqualTo(BIG - 1);
        RestClient.Reply tooLarge = rest.call("GET", "/listeners/big/status?limit=100000", null, true);
        assertThat(tooLarge.status()).as(tooLarge.body()).isEqualTo(400);
        assertThat(tooLarge.json().getString("message")).contains("limit", "10000");

        // One leader epoch all along; no pool refusal; monitoring within its budget.
        assertThat(worker.lines().stream().filter(l -> l.contains("-> LEADER"))).as("leader claims").hasSize(1);
        assertThat(worker.lines().stream().filter(l -> l.contains("LEADER -> "))).as("leadership lost").isEmpty();
        assertThat(worker.lines().stream().filter(l -> l.contains("max wait queue size"))).isEmpty();
        Map<String, Double> gauges = gauges(rest);
        assertThat(gauges.get("shardline_redis_pool_refused")).isZero();
        assertThat(gauges.get("shardline_redis_monitoring_refused")).isZero();
        assertThat(gauges.get("shardline_redis_monitoring_in_flight_max")).isBetween(1.0, (double) IN_FLIGHT);
    }

    /** Creates the consumer group {@code big} (and its stream) on every shard of {@code big}, 10,000 per script. */
    private static long createGroups(RedisServer redis) throws Exception {
        long start = System.nanoTime();
        String script = "for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do "
                + "redis.call('XGROUP', 'CREATE', '{big:' .. i .. '}', 'big', '$', 'MKSTREAM') end return 1";
        try (RespProbe probe = redis.probe()) {
            for (int from = 0; from < BIG; from += 10_000) {
                probe.call("EVAL", script, "0", Integer.toString(from), Integer.toString(from + 9_999));
            }
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    private static Map<String, Double> gauges(RestClient rest) {
        RestClient.Reply reply = rest.call("GET", "/metrics", null, true);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        Map<String, Double> out = new java.util.TreeMap<>();
        Matcher m = GAUGE.matcher(reply.body());
        while (m.find()) {
            out.put(m.group(1), Double.parseDouble(m.group(2)));
        }
        assertThat(out).containsKeys("shardline_redis_pool_refused", "shardline_redis_monitoring_commands",
                "shardline_redis_monitoring_refused", "shardline_redis_monitoring_in_flight_max");
        return out;
    }
}
