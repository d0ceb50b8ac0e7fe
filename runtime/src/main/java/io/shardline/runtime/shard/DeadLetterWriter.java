package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.StreamRecord;
import io.vertx.core.Future;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Writes a record that failed every attempt to the listener's dead-letter stream: the record's own
 * fields unchanged, plus {@code __dlq.*} fields saying where it came from and why it failed (see
 * {@link #FIELDS}). The record is acknowledged on its shard only after this write succeeded.
 * Thread-safe.
 */
final class DeadLetterWriter {

    /** The metadata fields added to a dead letter. */
    static final String[] FIELDS = {
        "__dlq.stream", "__dlq.shard", "__dlq.id", "__dlq.listener", "__dlq.group", "__dlq.member",
        "__dlq.epoch", "__dlq.attempts", "__dlq.error", "__dlq.failed.at.ms"
    };

    private static final int MAX_ERROR_LENGTH = 2_000;

    private final ShardCommands commands;
    private final String stream;
    private final LongSupplier clockMs;

    DeadLetterWriter(ShardCommands commands, String stream, LongSupplier clockMs) {
        this.commands = commands;
        this.stream = stream;
        this.clockMs = clockMs;
    }

    /** Appends the dead letter; returns its entry id in the dead-letter stream. */
    Future<String> write(StreamRecord record, ShardContext shard, int attempts, Throwable error) {
        Map<String, String> fields = new LinkedHashMap<>(record.fields());
        fields.put(FIELDS[0], record.shard().stream());
        fields.put(FIELDS[1], Integer.toString(record.shard().index()));
        fields.put(FIELDS[2], record.entryId());
        fields.put(FIELDS[3], shard.handlerContext().listenerName());
        fields.put(FIELDS[4], shard.handlerContext().group());
        fields.put(FIELDS[5], shard.handlerContext().memberId());
        fields.put(FIELDS[6], Long.toString(shard.ownerEpoch()));
        fields.put(FIELDS[7], Integer.toString(attempts));
        fields.put(FIELDS[8], describe(error));
        fields.put(FIELDS[9], Long.toString(clockMs.getAsLong()));
        return commands.append(stream, fields);
    }

    static String describe(Throwable error) {
        String text = error.getClass().getName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
        return text.length() > MAX_ERROR_LENGTH ? text.substring(0, MAX_ERROR_LENGTH) : text;
    }
}
