package io.shardline.runtime.store;

import static io.shardline.runtime.testing.Await.failure;
import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.AuditEvent;
import io.shardline.coordinator.AuditType;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The groups' audit streams on a real redis-server: written only by an accepted guarded append or compaction of
 * the group log (in the same script), capped, and read back newest last with malformed entries skipped.
 */
@RedisTest
class RedisAuditLogTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String RUN = "run-1";
    /** Reads entries as the JSON objects they hold. */
    private static final Function<JsonObject, JsonObject> AS_JSON = Function.identity();

    private Vertx vertx;
    private RedisClient redis;
    private MetadataKeys keys;
    private RedisGroupLog log;
    private RedisAuditLog audit;

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(5)), WAIT);
        keys = new MetadataKeys("c-" + UUID.randomUUID());
        log = new RedisGroupLog(redis, keys);
        audit = new RedisAuditLog(redis, keys);
        assertThat(result(log.claim("w1", 0), WAIT).won()).isTrue();
    }

    @AfterEach
    void stop() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    private static AuditEvent event(String group, String member, int epoch) {
        return new AuditEvent(epoch, group, AuditType.MEMBER_JOINED, member, Optional.empty(), epoch, epoch, epoch,
                "joined " + epoch);
    }

    private static Map<String, List<String>> byGroup(AuditEvent... events) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (AuditEvent e : events) {
            out.computeIfAbsent(e.groupId(), g -> new ArrayList<>()).add(RedisAuditLog.encode(e));
        }
        return out;
    }

    private List<String> reasons(String group, int limit) {
        return result(audit.recent(group, limit, o -> o.getString("reason")), WAIT);
    }

    private long length(String group) {
        return result(redis.send(Request.cmd(Command.XLEN).arg(keys.audit(group))), WAIT).toLong();
    }

    @Test
    void anAcceptedAppendStoresEachGroupsEventsInDecisionOrder() {
        long before = System.currentTimeMillis();
        AuditEvent withShard = new AuditEvent(5, "g1", AuditType.SHARD_GRANTED, "m1", Optional.of(new ShardId("s", 3)),
                2, 3, 4, "granted");
        assertEquals(1L, result(log.append(1, 0, RUN, List.of("r1"), byGroup(event("g1", "m1", 1), event("g2", "m2", 1),
                withShard)), WAIT));
        long after = System.currentTimeMillis();

        List<JsonObject> g1 = result(audit.recent("g1", 10, AS_JSON), WAIT);
        assertThat(g1).hasSize(2);
        assertThat(g1.get(1).getLong("time_ms")).as("the Redis clock at the commit")
                .isBetween(before - 5_000, after + 5_000).isGreaterThanOrEqualTo(g1.get(0).getLong("time_ms"));
        assertEquals(new JsonObject().put("type", "SHARD_GRANTED").put("member_id", "m1").put("shard", "s:3")
                .put("group_epoch", 2).put("assignment_epoch", 3).put("member_epoch", 4).put("reason", "granted")
                .put("time_ms", g1.get(1).getLong("time_ms")), g1.get(1));
        assertThat(reasons("g2", 10)).containsExactly("joined 1");
        assertThat(reasons("g3", 10)).isEmpty();
        assertThat(keys.audit("g1")).startsWith(keys.prefix() + ":");
    }

    @Test
    void eventsWithoutRecordsAreStoredAndKeepTheRevision() {
        assertEquals(0L, result(log.append(1, 0, RUN, List.of(), byGroup(event("g", "m1", 1))), WAIT));
        assertEquals(0L, result(log.load(), WAIT).revision());
        assertThat(reasons("g", 10)).containsExactly("joined 1");
    }

    @Test
    void aRefusedAppendOrCompactionStoresNoEvent() {
        assertEquals(1L, result(log.append(1, 0, RUN, List.of("r1"), byGroup(event("g", "m1", 1))), WAIT));
        assertThat(result(log.claim("w2", 1), WAIT).won()).isTrue();

        assertThat(failure(log.append(1, 1, RUN, List.of("zombie"), byGroup(event("g", "zombie", 2))), WAIT))
                .isInstanceOfSatisfying(StoreFencedException.class,
                        e -> assertEquals(StoreFencedException.Kind.STALE_LEADER_EPOCH, e.kind()));
        assertThat(failure(log.append(1, 1, RUN, List.of(), byGroup(event("g", "zombie", 3))), WAIT))
                .as("events without records are guarded too").isInstanceOf(StoreFencedException.class);
        assertThat(failure(log.compact(1, 1, RUN, List.of("s"), byGroup(event("g", "zombie", 4))), WAIT))
                .isInstanceOf(StoreFencedException.class);
        assertThat(failure(log.append(2, 0, RUN, List.of("r"), byGroup(event("g", "stale", 5))), WAIT))
                .isInstanceOfSatisfying(StoreFencedException.class,
                        e -> assertEquals(StoreFencedException.Kind.REVISION_MISMATCH, e.kind()));
        assertThat(reasons("g", 10)).containsExactly("joined 1");

        assertEquals(2L, result(log.compact(2, 1, RUN, List.of("snapshot"), byGroup(event("g", "m2", 6))), WAIT));
        assertThat(reasons("g", 10)).containsExactly("joined 1", "joined 6");
        assertEquals(List.of("snapshot"), result(log.load(), WAIT).records());
    }

    @Test
    void anAuditKeyOfAnotherTypeDoesNotStopTheCommit() {
        result(redis.send(Request.cmd(Command.SET).arg(keys.audit("broken")).arg("not a stream")), WAIT);
        assertEquals(1L, result(log.append(1, 0, RUN, List.of("r1"), byGroup(event("broken", "m1", 1),
                event("g", "m1", 2))), WAIT));
        assertEquals(List.of("r1"), result(log.load(), WAIT).records());
        assertThat(reasons("g", 10)).containsExactly("joined 2");
        assertEquals("not a stream", result(redis.send(Request.cmd(Command.GET).arg(keys.audit("broken"))), WAIT)
                .toString());
    }

    @Test
    void theCapKeepsTheNewestEvents() {
        int total = RedisAuditLog.MAX_EVENTS_PER_GROUP + 500;
        for (int batch = 0; batch < total / 100; batch++) {
            AuditEvent[] events = IntStream.range(batch * 100, batch * 100 + 100)
                    .mapToObj(i -> event("g", "m", i)).toArray(AuditEvent[]::new);
            result(log.append(1, 0, RUN, List.of(), byGroup(events)), WAIT);
        }
        long kept = length("g");
        // MAXLEN ~ trims whole stream nodes: never below the cap, at most one node (100 entries by default) above.
        assertThat(kept).isBetween((long) RedisAuditLog.MAX_EVENTS_PER_GROUP,
                (long) RedisAuditLog.MAX_EVENTS_PER_GROUP + 100);
        List<String> all = reasons("g", 10_000);
        assertThat(all).hasSize((int) kept).endsWith("joined " + (total - 1))
                .startsWith("joined " + (total - kept));
        assertThat(reasons("g", 3)).containsExactly("joined " + (total - 3), "joined " + (total - 2),
                "joined " + (total - 1));
    }

    @Test
    void malformedEntriesAreSkippedAndLoggedOnce() {
        String key = keys.audit("g");
        result(log.append(1, 0, RUN, List.of(), byGroup(event("g", "m", 1))), WAIT);
        xadd(key, RedisAuditLog.FIELD, "{not json");
        xadd(key, "other", "{}");
        xadd(key, RedisAuditLog.FIELD, "{\"reason\": \"no type\"}");
        xadd(key, RedisAuditLog.FIELD, "[1, 2]");
        result(log.append(1, 0, RUN, List.of(), byGroup(event("g", "m", 2))), WAIT);

        ListAppender<ILoggingEvent> logs = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(RedisAuditLog.class);
        logs.start();
        logger.addAppender(logs);
        try {
            Function<JsonObject, String> typed = o -> {
                if (o.getString("type") == null) {
                    throw new IllegalArgumentException("no type");
                }
                return o.getString("reason");
            };
            for (int i = 0; i < 3; i++) {
                assertThat(result(audit.recent("g", 2, typed), WAIT)).as("read %d", i)
                        .containsExactly("joined 1", "joined 2");
            }
            assertThat(result(audit.recent("g", 1, typed), WAIT)).containsExactly("joined 2");
        } finally {
            logger.detachAppender(logs);
        }
        assertThat(logs.list).allSatisfy(e -> assertThat(e.getLevel()).isEqualTo(Level.WARN))
                .extracting(ILoggingEvent::getFormattedMessage).hasSize(4)
                .allSatisfy(m -> assertThat(m).startsWith("Skipping malformed audit entry").contains(key));
    }

    @Test
    void aLimitBelowOneIsRefused() {
        assertThatThrownBy(() -> audit.recent("g", 0, AS_JSON)).hasMessage("limit must be at least 1, was 0");
    }

    private void xadd(String key, String field, String value) {
        result(redis.send(Request.cmd(Command.XADD).arg(key).arg("*").arg(field).arg(value)), WAIT);
    }
}
