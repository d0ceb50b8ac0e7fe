package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.StreamRecord;
import io.vertx.core.Future;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a record that failed every attempt, or that Redis delivered more than {@code max.deliveries} times (a
 * poison record, see docs/operations.md), to the listener's dead-letter stream: the record's own fields unchanged,
 * plus {@code __dlq.*} fields saying where it came from and why it failed (see {@link #FIELDS}). The record is
 * acknowledged on its shard only after this write succeeded.
 *
 * <p>Every failed handler attempt is also noted in the shard's error hash in Redis ({@link ShardCommands#noteError}),
 * so that a poison record dead-lettered by another worker (the one that had it died) carries the last error known;
 * when none was noted (the handler never returned: the JVM died, or the member lost its lease) the error says so.
 * Thread-safe.
 */
final class DeadLetterWriter {

    /** The metadata fields added to a dead letter. */
    static final String[] FIELDS = {
        "__dlq.stream", "__dlq.shard", "__dlq.id", "__dlq.listener", "__dlq.group", "__dlq.member",
        "__dlq.epoch", "__dlq.attempts", "__dlq.error", "__dlq.failed.at.ms", "__dlq.deliveries"
    };

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterWriter.class);
    private static final int MAX_ERROR_LENGTH = 2_000;

    private final ShardCommands commands;
    private final String stream;
    private final String group;
    private final int maxDeliveries;
    private final LongSupplier clockMs;

    DeadLetterWriter(ShardCommands commands, ConsumerSettings settings, LongSupplier clockMs) {
        this.commands = commands;
        this.stream = settings.deadLetterStream();
        this.group = settings.group();
        this.maxDeliveries = settings.maxDeliveries();
        this.clockMs = clockMs;
    }

    /**
     * Appends the dead letter; returns its entry id in the dead-letter stream. {@code error} is null for a poison
     * record: the error noted in Redis is used then, and dropped once the dead letter is written.
     */
    Future<String> write(StreamRecord record, ShardContext shard, int attempts, Throwable error) {
        if (error != null) {
            return append(record, shard, attempts, describe(error));
        }
        return commands.lastError(record.shard(), group, record.entryId())
                .recover(e -> Future.succeededFuture(java.util.Optional.of("(the last error could not be read: "
                        + e.getMessage() + ")")))
                .compose(last -> append(record, shard, 0, poisonError(record.deliveryCount(), last.orElse(null))))
                .onSuccess(id -> commands.clearError(record.shard(), group, record.entryId())
                        .onFailure(e -> LOG.debug("dropping the noted error of {} failed: {}", record.entryId(), e.toString())));
    }

    /** Notes a failed attempt of {@code records} in Redis (best effort: a failure is logged, nothing else). */
    void noteFailure(StreamRecord first, List<String> ids, Throwable error) {
        commands.noteError(first.shard(), group, ids, describe(error)).onFailure(e -> LOG.warn(
                "shard {}: noting the handler error of {} record(s) from {} in Redis failed: {}", first.shard(), ids.size(),
                first.entryId(), e.toString()));
    }

    private String poisonError(int deliveries, String last) {
        String head = "max.deliveries=" + maxDeliveries + " reached: delivered " + deliveries + " times without an "
                + "acknowledgement; ";
        String tail = last != null ? "last handler error: " + last
                : "no handler error was recorded (the handler never returned: its worker stopped, e.g. the JVM died or "
                + "the member lost its lease, while the record was in flight)";
        String text = head + tail;
        return text.length() > MAX_ERROR_LENGTH ? text.substring(0, MAX_ERROR_LENGTH) : text;
    }

    private Future<String> append(StreamRecord record, ShardContext shard, int attempts, String error) {
        Map<String, String> fields = new LinkedHashMap<>(record.fields());
        fields.put(FIELDS[0], record.shard().stream());
        fields.put(FIELDS[1], Integer.toString(record.shard().index()));
        fields.put(FIELDS[2], record.entryId());
        fields.put(FIELDS[3], shard.handlerContext().listenerName());
        fields.put(FIELDS[4], shard.handlerContext().group());
        fields.put(FIELDS[5], shard.handlerContext().memberId());
        fields.put(FIELDS[6], Long.toString(shard.ownerEpoch()));
        fields.put(FIELDS[7], Integer.toString(attempts));
        fields.put(FIELDS[8], error);
        fields.put(FIELDS[9], Long.toString(clockMs.getAsLong()));
        fields.put(FIELDS[10], Integer.toString(record.deliveryCount()));
        return commands.append(stream, fields);
    }

    static String describe(Throwable error) {
        String text = error.getClass().getName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
        return text.length() > MAX_ERROR_LENGTH ? text.substring(0, MAX_ERROR_LENGTH) : text;
    }
}
