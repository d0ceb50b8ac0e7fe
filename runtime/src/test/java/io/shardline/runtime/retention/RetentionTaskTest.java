package io.shardline.runtime.retention;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.shardline.api.handler.ShardId;
import io.shardline.runtime.metrics.RetentionMetrics;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.runtime.testing.Await;
import io.shardline.runtime.topology.TopologyStore;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The leader's retention task over a real redis-server, paced one shard per tick (docs/operations.md,
 * "Retention"): a stopped group holds a stream back (a warning naming it and how far, the held-back gauges), and
 * once the group catches up the stream is trimmed to its retention and the task says so. A worker that does not
 * lead trims nothing. Conditions are awaited with a deadline of many ticks; no timing is asserted.
 */
@RedisTest
class RetentionTaskTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long TICK_MS = 20;

    private final String stream = "ret-" + UUID.randomUUID();
    private final AtomicBoolean leader = new AtomicBoolean(true);
    private final MetricRegistry registry = new MetricRegistry();
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private Vertx vertx;
    private RedisClient redis;
    private RetentionTask task;

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(5)), WAIT);
        logs.start();
        ((Logger) LoggerFactory.getLogger(RetentionTask.class)).addAppender(logs);
        Map<String, Map<String, String>> listeners = Map.of(
                "fast", Map.of("handler", "h", "streams", stream + ":2", RetentionPolicy.MAX_LENGTH_CONFIG, "10"),
                "slow", Map.of("handler", "h", "streams", stream + ":2"));
        task = new RetentionTask(vertx, new RetentionTrim(redis), () -> Future.succeededFuture(listeners),
                new TopologyStore(redis, "ret")::readAll, leader::get,
                new RetentionMetrics(registry), System::currentTimeMillis, new RetentionSettings(TICK_MS, 1, 1_000));
    }

    @AfterEach
    void stop() {
        task.close();
        ((Logger) LoggerFactory.getLogger(RetentionTask.class)).detachAppender(logs);
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    @Test
    void aStoppedGroupHoldsRetentionBackUntilItCatchesUp() {
        for (int shard = 0; shard < 2; shard++) {
            ShardId id = new ShardId(stream, shard);
            add(id, 50);
            group(id, "fast");
            group(id, "slow");
            readAndAck(id, "fast", 50);
        }
        task.start();

        Await.until(() -> gauge(RetentionMetrics.HELD_BACK_SHARDS) == 2, WAIT, TICK_MS,
                "both shards reported held back by 'slow' within " + WAIT);
        assertEquals(40 * 2, gauge(RetentionMetrics.HELD_BACK_ENTRIES));
        assertEquals(50, len(new ShardId(stream, 0)), "nothing 'slow' has not read is trimmed");
        assertThat(messages(Level.WARN)).anySatisfy(m -> assertThat(m)
                .contains("Retention of stream '" + stream + "' is held back on 2 of 2 shard(s) by group(s) [slow]")
                .contains("80 entries"));

        for (int shard = 0; shard < 2; shard++) {
            readAndAck(new ShardId(stream, shard), "slow", 50);
        }
        Await.until(() -> len(new ShardId(stream, 0)) == 10 && len(new ShardId(stream, 1)) == 10, WAIT, TICK_MS,
                "both shards trimmed to retention.max.length = 10 once 'slow' caught up, within " + WAIT);
        Await.until(() -> gauge(RetentionMetrics.HELD_BACK_SHARDS) == 0, WAIT, TICK_MS, "the gauge back at 0");
        assertEquals(80, registry.counter(RetentionMetrics.TRIMMED.name(stream)).getCount());
        Await.until(() -> messages(Level.INFO).stream().anyMatch(m -> m.contains("is no longer held back")), WAIT,
                TICK_MS, "the release logged");
    }

    @Test
    void aWorkerThatDoesNotLeadTrimsNothing() {
        leader.set(false);
        ShardId id = new ShardId(stream, 0);
        add(id, 30);
        task.start();
        assertEquals(30, len(id), "a worker that does not lead trims nothing");
        leader.set(true);
        Await.until(() -> len(id) == 10, WAIT, TICK_MS, "trimmed once leading (no group on the key)");
        leader.set(false);
        Await.until(() -> registry.getGauges().isEmpty(), WAIT, TICK_MS, "the gauges removed when no longer leading");
    }

    @Test
    void aShardAddedByAChangeOfTheShardCountIsTrimmedThoughTheDefinitionsNameTheOldCount() {
        // The definitions say :2; the stream has 3 shards now (a change the running listeners follow).
        result(new TopologyStore(redis, "ret").create(stream, 3, "test"), WAIT);
        ShardId added = new ShardId(stream, 2);
        add(added, 30);
        task.start();
        Await.until(() -> len(added) == 10, WAIT, TICK_MS, "shard 2, beyond the declared count, trimmed to "
                + "retention.max.length = 10 within " + WAIT);
    }

    @SuppressWarnings("unchecked")
    private long gauge(io.shardline.runtime.metrics.MetricTemplate template) {
        Gauge<Long> gauge = registry.getGauges().get(template.name(stream));
        return gauge == null ? -1 : gauge.getValue();
    }

    private java.util.List<String> messages(Level level) {
        return logs.list.stream().filter(e -> e.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
    }

    private void add(ShardId shard, int count) {
        for (int i = 1; i <= count; i++) {
            result(redis.send(Request.cmd(Command.XADD).arg(shard.key()).arg("*").arg("n").arg(i)), WAIT);
        }
    }

    private void group(ShardId shard, String name) {
        result(redis.send(Request.cmd(Command.XGROUP).arg("CREATE").arg(shard.key()).arg(name).arg("0")), WAIT);
    }

    private void readAndAck(ShardId shard, String group, int count) {
        var reply = result(redis.send(Request.cmd(Command.XREADGROUP).arg("GROUP").arg(group).arg("c")
                .arg("COUNT").arg(count).arg("STREAMS").arg(shard.key()).arg(">")), WAIT);
        Request ack = Request.cmd(Command.XACK).arg(shard.key()).arg(group);
        reply.get(0).get(1).forEach(entry -> ack.arg(entry.get(0).toString()));
        result(redis.send(ack), WAIT);
    }

    private long len(ShardId shard) {
        return result(redis.send(Request.cmd(Command.XLEN).arg(shard.key())), WAIT).toLong();
    }
}
