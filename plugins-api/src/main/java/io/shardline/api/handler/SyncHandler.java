package io.shardline.api.handler;

import java.util.List;

/**
 * A handler whose code blocks: the runtime calls it on a worker thread (a named pool of the listener,
 * sized from {@code max.concurrency}), never on an event loop. Implement {@link #handle(StreamRecord,
 * ShardContext)} for one record at a time, or override {@link #handleBatch(List, ShardContext)} to take
 * a whole batch (e.g. one bulk write).
 *
 * <p>A batch that throws is retried as a whole; when it has failed {@code max.attempts} times, the
 * runtime hands its records one by one to {@link #handleBatch(List, ShardContext)} (singleton lists), each
 * with its own attempts, and dead-letters only the records that still fail. So a batch implementation
 * must be safe to repeat (idempotent), as every handler under at-least-once delivery.
 *
 * <p>A call that runs past {@code handler.timeout.ms} counts as failed; its thread is interrupted.
 */
public interface SyncHandler extends Handler {

    /**
     * Processes one record.
     *
     * @throws Exception to fail the record; {@link NonRetriableException} sends it to the dead-letter
     *     stream without further attempts
     */
    void handle(StreamRecord record, ShardContext shard) throws Exception;

    /**
     * Processes a batch of records of one shard, in entry-id order. Returning normally acknowledges all of
     * them. By default calls {@link #handle(StreamRecord, ShardContext)} for each record in order.
     */
    default void handleBatch(List<StreamRecord> records, ShardContext shard) throws Exception {
        for (StreamRecord record : records) {
            handle(record, shard);
        }
    }
}
