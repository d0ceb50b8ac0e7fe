package io.shardline.chaos.verifying;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.shardline.api.config.ConfigException;
import io.shardline.api.config.ConfigValues;
import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.HandlerMetrics;
import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerifyingHandlerTest {

    @TempDir
    Path dir;

    @Test
    void logsOneLinePerRecordWithShardEpochMemberTimesAndItsCall() throws Exception {
        AtomicLong clock = new AtomicLong(1_000);
        VerifyingHandler handler = new VerifyingHandler(clock::getAndIncrement);
        ConfigValues config = handler.config().parse(Map.of("verify.dir", dir.toString()));
        handler.start(context("w1-chaos-m0", config));
        ShardId shard = new ShardId("chaos", 7);
        ShardContext owned = shardContext(shard, 3);
        handler.onAssigned(owned); // ready at 1000
        handler.handleBatch(List.of(
                new StreamRecord(shard, "5-0", Map.of("seq", "41"), 1),
                new StreamRecord(shard, "5-1", Map.of("seq", "42"), 2)), owned); // returns at 1005
        handler.handleBatch(List.of(new StreamRecord(shard, "6-0", Map.of("seq", "43"), 1)), owned);
        handler.stop();

        List<String> lines = Files.readAllLines(dir.resolve("w1-chaos-m0.tsv"));
        assertThat(lines).extracting(HandlingLine::parse).containsExactly(
                new HandlingLine("chaos", "chaos", 7, "5-0", 41, "w1-chaos-m0", 3, 1_001, 1_002, 1, 1, 1_000),
                new HandlingLine("chaos", "chaos", 7, "5-1", 42, "w1-chaos-m0", 3, 1_003, 1_004, 2, 1, 1_000),
                new HandlingLine("chaos", "chaos", 7, "6-0", 43, "w1-chaos-m0", 3, 1_006, 1_007, 1, 2, 1_005));
    }

    @Test
    void aShardTakenAgainUnderANewEpochIsReadyWhenOnAssignedReturned() throws Exception {
        AtomicLong clock = new AtomicLong(1_000);
        VerifyingHandler handler = new VerifyingHandler(clock::getAndIncrement);
        handler.start(context("w1-chaos-m0", handler.config().parse(Map.of("verify.dir", dir.toString()))));
        ShardId shard = new ShardId("chaos", 7);
        handler.onAssigned(shardContext(shard, 3)); // 1000
        handler.handleBatch(List.of(new StreamRecord(shard, "5-0", Map.of("seq", "41"), 1)), shardContext(shard, 3));
        handler.onRevoked(shardContext(shard, 3));
        handler.onAssigned(shardContext(shard, 5)); // 1004
        handler.handleBatch(List.of(new StreamRecord(shard, "6-0", Map.of("seq", "42"), 1)), shardContext(shard, 5));
        handler.stop();

        List<HandlingLine> lines = Files.readAllLines(dir.resolve("w1-chaos-m0.tsv")).stream()
                .map(HandlingLine::parse).toList();
        assertThat(lines).extracting(HandlingLine::epoch, HandlingLine::batch, HandlingLine::readyMs)
                .containsExactly(tuple(3L, 1L, 1_000L), tuple(5L, 2L, 1_004L));
    }

    @Test
    void readsLinesOfTheFormatWithoutBatchAndReadyTime() {
        assertThat(HandlingLine.parse("chaos\tchaos\t7\t5-0\t41\tw1-chaos-m0\t3\t1000\t1001\t1"))
                .isEqualTo(new HandlingLine("chaos", "chaos", 7, "5-0", 41, "w1-chaos-m0", 3, 1_000, 1_001, 1,
                        HandlingLine.UNKNOWN, HandlingLine.UNKNOWN))
                .matches(h -> !h.knowsBatch());
    }

    @Test
    void requiresTheLogDirectory() {
        assertThatThrownBy(() -> new VerifyingHandler().config().parse(Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("verify.dir");
    }

    @Test
    void tornLinesAreRejectedWithTheReason() {
        assertThatThrownBy(() -> HandlingLine.parse("chaos\tchaos\t7\t5-0"))
                .hasMessageContaining("expected 12 tab-separated fields (or 10 in the format without batch and readyMs), got 4");
    }

    private static HandlerContext context(String member, ConfigValues config) {
        return new HandlerContext() {
            @Override
            public String listenerName() {
                return "chaos";
            }

            @Override
            public String memberId() {
                return member;
            }

            @Override
            public String group() {
                return "chaos";
            }

            @Override
            public ConfigValues config() {
                return config;
            }

            @Override
            public HandlerMetrics metrics() {
                return HandlerMetrics.noop();
            }
        };
    }

    private static ShardContext shardContext(ShardId shard, long epoch) {
        return new ShardContext() {
            @Override
            public ShardId shard() {
                return shard;
            }

            @Override
            public long ownerEpoch() {
                return epoch;
            }

            @Override
            public HandlerContext handlerContext() {
                throw new UnsupportedOperationException("not used by the verifying handler");
            }
        };
    }
}
