package io.shardline.runtime.store;

import static io.shardline.runtime.testing.Await.failure;
import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RedisTest
class RedisGroupLogTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String RUN = "run-1";

    private Vertx vertx;
    private RedisClient redis;
    private RedisGroupLog log;

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(5)), WAIT);
        log = new RedisGroupLog(redis, new MetadataKeys("c-" + UUID.randomUUID()));
    }

    @AfterEach
    void stop() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    @Test
    void deposedLeaderWriteIsRefused() {
        RedisGroupLog.Claim first = result(log.claim("w1", 0), WAIT);
        assertEquals(new GroupLogState(1, 0, "w1", List.of()), first.state());
        assertEquals(1L, result(log.append(1, 0, RUN, List.of("a", "b")), WAIT));

        RedisGroupLog.Claim second = result(log.claim("w2", 1), WAIT);
        assertThat(second.won()).isTrue();
        assertEquals(new GroupLogState(2, 1, "w2", List.of("a", "b")), second.state());

        Throwable refused = failure(log.append(1, 1, RUN, List.of("zombie")), WAIT);
        assertThat(refused).isInstanceOfSatisfying(StoreFencedException.class, e -> {
            assertEquals(StoreFencedException.Kind.STALE_LEADER_EPOCH, e.kind());
            assertEquals(2, e.currentEpoch());
        });
        assertEquals(List.of("a", "b"), result(log.load(), WAIT).records());
    }

    @Test
    void aLiveHolderIsDeposedOnlyWhenSilentOrSeeingFewerWorkersAndAWonClaimCountsAsAWrite() {
        RedisGroupLog.Claim first = result(log.claim("w1", 0, 3, 60_000, RUN), WAIT);
        assertThat(first.won()).as("a free epoch").isTrue();
        result(log.append(1, 0, RUN, List.of("r1")), WAIT);

        RedisGroupLog.Claim partial = result(log.claim("w2", 1, 1, 60_000, RUN), WAIT);
        assertThat(partial.won()).as("w1 still writes and sees 3 workers; w2 sees 1 (a partial view)").isFalse();
        assertThat(partial.state().holder()).isEqualTo("w1");
        assertThat(partial.holderView()).isEqualTo(3);
        assertThat(result(log.claim("w2", 1, 3, 60_000, RUN), WAIT).won()).as("an equal view does not depose").isFalse();
        RedisGroupLog.LeaderStatus status = result(log.status(), WAIT);
        assertThat(status).isEqualTo(new RedisGroupLog.LeaderStatus(1, "w1", status.sinceLastWriteMs(), 3));

        assertThat(result(log.recordView(1, 1), WAIT)).as("w1's view shrank to itself (a split)").isTrue();
        RedisGroupLog.Claim larger = result(log.claim("w2", 1, 2, 60_000, RUN), WAIT);
        assertThat(larger.won()).as("the large side of the split deposes the small side's holder").isTrue();
        assertThat(result(log.recordView(1, 3), WAIT)).as("the deposed holder records nothing").isFalse();

        RedisGroupLog.LeaderStatus afterClaim = result(log.status(), WAIT);
        assertThat(afterClaim.holder()).isEqualTo("w2");
        assertThat(afterClaim.sinceLastWriteMs()).as("the won claim is the new holder's first write").isBetween(0L, 5_000L);
        assertThat(result(log.claim("w3", 2, 1, 0, RUN), WAIT).won()).as("a holder silent for the bound (0 here)")
                .isTrue();
        assertThat(result(log.claim("w1", 3, 1, -1, RUN), WAIT).won()).as("a hand-over is unconditional").isTrue();
    }

    @Test
    void claimIsCompareAndSet() {
        result(log.claim("w1", 0), WAIT);
        RedisGroupLog.Claim late = result(log.claim("w2", 0), WAIT);
        assertThat(late.won()).isFalse();
        assertEquals(1, late.state().leaderEpoch());
        assertEquals("w1", late.state().holder());
        assertThat(result(log.claim("w3", -1), WAIT).state().leaderEpoch()).isEqualTo(2);
    }

    @Test
    void staleRevisionIsRefusedAndEmptyAppendChecksGuards() {
        result(log.claim("w1", 0), WAIT);
        assertEquals(1L, result(log.append(1, 0, RUN, List.of("a")), WAIT));
        assertThat(failure(log.append(1, 0, RUN, List.of("b")), WAIT)).isInstanceOfSatisfying(StoreFencedException.class,
                e -> assertEquals(StoreFencedException.Kind.REVISION_MISMATCH, e.kind()));
        assertEquals(1L, result(log.append(1, 1, RUN, List.of()), WAIT));
        assertThat(failure(log.append(7, 1, RUN, List.of()), WAIT)).isInstanceOf(StoreFencedException.class);
    }

    @Test
    void compactionReplacesTheLogAndLargeWritesAreChunked() {
        result(log.claim("w1", 0), WAIT);
        List<String> many = IntStream.range(0, 2_500).mapToObj(i -> "r" + i).toList();
        assertEquals(1L, result(log.append(1, 0, RUN, many), WAIT));
        assertEquals(2_500, result(log.load(), WAIT).records().size());
        assertEquals(2L, result(log.compact(1, 1, RUN, List.of("snapshot")), WAIT));
        assertEquals(new GroupLogState(1, 2, "w1", List.of("snapshot")), result(log.load(), WAIT));
    }

    @Test
    void scriptsSurviveScriptCacheFlush() {
        result(log.claim("w1", 0), WAIT);
        result(redis.send(Request.cmd(Command.SCRIPT).arg("FLUSH")), WAIT);
        assertEquals(1L, result(log.append(1, 0, RUN, List.of("a")), WAIT));
    }

    @Test
    void aClaimTellsHowLongAgoTheLastAcceptedWriteWasAndUnderWhichRunId() {
        assertThat(result(log.claim("w1", 0), WAIT).lastWrite()).as("no write yet").isEmpty();
        // Each "ago" is bounded by the time this test saw pass around the calls (Redis and this JVM share a clock),
        // not by a figure that a busy machine could exceed.
        long appendAt = System.nanoTime();
        result(log.append(1, 0, RUN, List.of()), WAIT);
        RedisGroupLog.LastWrite fresh = result(log.claim("w2", 1), WAIT).lastWrite().orElseThrow();
        assertThat(fresh.runId()).isEqualTo(RUN);
        assertThat(fresh.agoMs()).as("ago of a write just made").isBetween(0L, msSince(appendAt) + 1);

        // A refused write is no write: the recorded time stays where the accepted one put it (set 5 s back here).
        long setAt = System.nanoTime();
        Response time = result(redis.send(Request.cmd(Command.TIME)), WAIT);
        long backSeconds = time.get(0).toLong() - 5;
        result(redis.send(Request.cmd(Command.SET).arg(log.keys().lastWrite())
                .arg(RUN + " " + backSeconds + " " + time.get(1).toString())), WAIT);
        assertThat(failure(log.append(1, 0, "run-zombie", List.of("late")), WAIT))
                .isInstanceOf(StoreFencedException.class);
        RedisGroupLog.LastWrite old = result(log.claim("w3", 2), WAIT).lastWrite().orElseThrow();
        assertThat(old.runId()).isEqualTo(RUN);
        assertThat(old.agoMs()).as("ago of a write recorded 5 s back").isBetween(5_000L - 1, 5_000L + msSince(setAt) + 1);

        // A compaction is a write too; an unknown run id is recorded as empty.
        long compactAt = System.nanoTime();
        result(log.compact(3, 0, "", List.of("snapshot")), WAIT);
        RedisGroupLog.LastWrite unknown = result(log.claim("w4", 3), WAIT).lastWrite().orElseThrow();
        assertThat(unknown.runId()).isEmpty();
        assertThat(unknown.agoMs()).as("ago of a compaction just made").isBetween(0L, msSince(compactAt) + 1);
        assertThatThrownBy(() -> log.append(4, 1, "two words", List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whitespace");
    }

    private static long msSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
