package io.shardline.api.handler;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * A handler whose code does not block: it starts the work and returns a stage that completes when the
 * batch is done. The runtime calls it on a worker thread too (so an accidental short block does no harm
 * to the event loops), but holds no thread while the stage is pending.
 *
 * <p>Completing normally acknowledges every record of the batch; completing exceptionally (or throwing,
 * or not completing within {@code handler.timeout.ms}, after which the runtime tries to cancel the stage)
 * fails it, with the same retry, split and dead-letter rules as {@link SyncHandler}.
 */
public interface AsyncHandler extends Handler {

    /**
     * Starts processing a batch of records of one shard, in entry-id order.
     *
     * @return a stage completing when every record of the batch is processed
     */
    CompletionStage<Void> handleBatch(List<StreamRecord> records, ShardContext shard);
}
