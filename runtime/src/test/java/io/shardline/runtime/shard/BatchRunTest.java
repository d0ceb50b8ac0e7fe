package io.shardline.runtime.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link BatchRun}'s delivery counts and poison records: the count handed to the handler rises with each in-process
 * call of the record (also across the split of a failing batch); a record delivered by Redis more than
 * {@code maxDeliveries} times is never handed over: the batch splits at once and that record is due for the
 * dead-letter stream with 0 attempts.
 */
class BatchRunTest {

    private static final ShardId SHARD = new ShardId("orders", 0);

    private static StreamRecord record(String id, int deliveries) {
        return new StreamRecord(SHARD, id, Map.of("n", id), deliveries);
    }

    private static List<Integer> counts(BatchRun batch) {
        return batch.current().stream().map(StreamRecord::deliveryCount).toList();
    }

    @Test
    void theDeliveryCountRisesWithEachInProcessCallAlsoAfterTheSplit() {
        BatchRun batch = new BatchRun(List.of(record("1-0", 1), record("2-0", 2)), 5);
        batch.markStarted();
        assertThat(counts(batch)).containsExactly(1, 2);
        assertThat(batch.failed(new IllegalStateException("boom"), 2)).isEqualTo(BatchRun.Decision.RETRY);
        batch.markStarted();
        assertThat(counts(batch)).containsExactly(2, 3);
        assertThat(batch.failed(new IllegalStateException("boom"), 2)).isEqualTo(BatchRun.Decision.SPLIT);
        batch.markStarted();
        assertThat(counts(batch)).as("two calls as a batch, this is the third").containsExactly(3);
        batch.advance();
        batch.markStarted();
        assertThat(counts(batch)).containsExactly(4);
        assertThat(batch.poison()).isFalse();
    }

    @Test
    void aRecordPastMaxDeliveriesIsSplitOutAndDueForTheDeadLetterStreamUnhandled() {
        BatchRun batch = new BatchRun(List.of(record("1-0", 3), record("2-0", 4), record("3-0", 1)), 3);
        assertThat(batch.current()).extracting(StreamRecord::entryId).containsExactly("1-0");
        assertThat(batch.deadLetterDue()).isFalse();
        batch.markStarted();
        batch.advance();
        assertThat(batch.current()).extracting(StreamRecord::entryId).containsExactly("2-0");
        assertThat(batch.poison()).isTrue();
        assertThat(batch.deadLetterDue()).isTrue();
        assertThat(batch.attemptsMade()).isZero();
        assertThat(counts(batch)).as("its Redis delivery count, untouched").containsExactly(4);
        batch.advance();
        assertThat(batch.deadLetterDue()).isFalse();
        assertThat(batch.current()).extracting(StreamRecord::entryId).containsExactly("3-0");
        batch.advance();
        assertThat(batch.finished()).isTrue();
    }

    @Test
    void aSinglePoisonRecordIsDueAtOnceAndABatchWithoutOneIsNotSplit() {
        BatchRun single = new BatchRun(List.of(record("1-0", 6)), 5);
        assertThat(single.deadLetterDue()).isTrue();
        BatchRun healthy = new BatchRun(List.of(record("1-0", 5), record("2-0", 1)), 5);
        assertThat(healthy.current()).hasSize(2);
        assertThat(healthy.deadLetterDue()).isFalse();
    }
}
