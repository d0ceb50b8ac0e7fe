package io.shardline.api.handler;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of a shard, as handed to a handler. Immutable.
 *
 * <p>Values are the entry's field values decoded as UTF-8. The producer library stores the record key
 * (the value that chose the shard) in the field {@value #KEY_FIELD}; it is also kept in {@link #fields()}.
 *
 * @param shard the shard the entry was read from
 * @param entryId the Redis entry id, {@code <ms>-<seq>}; unique and increasing within the shard, so it
 *     serves as an idempotency key together with the shard
 * @param fields the entry's fields in the order the producer wrote them (an unmodifiable map, {@link EntryFields})
 * @param deliveryCount how many times this entry has been delivered to this listener: its Redis delivery count
 *     (1 on the first read; one more each time its pending entry is read again, e.g. by the next owner after its
 *     worker died) plus the in-process retries of it so far ({@code max.attempts}): 1 on the first call, 2 on the
 *     first retry. A record whose Redis delivery count passes {@code max.deliveries} is dead-lettered without being
 *     handed to the handler again (docs/operations.md, "Poison records")
 */
public record StreamRecord(ShardId shard, String entryId, Map<String, String> fields, int deliveryCount) {

    /** The field the producer library writes the record key to. */
    public static final String KEY_FIELD = "__key";

    /** Validates and copies the fields (keeping their order) into an {@link EntryFields}; one given as such is kept as it is. */
    public StreamRecord {
        Objects.requireNonNull(shard, "shard");
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(fields, "fields");
        if (entryId.indexOf('-') <= 0) {
            throw new IllegalArgumentException("entry id must be <ms>-<seq>, got '" + entryId + "'");
        }
        fields = EntryFields.copyOf(fields);
    }

    /** The record key the producer set ({@value #KEY_FIELD}), if any. */
    public Optional<String> key() {
        return Optional.ofNullable(fields.get(KEY_FIELD));
    }

    /** One field value, or {@code null} when the entry has no such field. */
    public String field(String name) {
        return fields.get(name);
    }

    /** The time Redis assigned to the entry, in epoch milliseconds: the {@code <ms>} part of the entry id. */
    public long timestampMs() {
        return Long.parseLong(entryId.substring(0, entryId.indexOf('-')));
    }
}
