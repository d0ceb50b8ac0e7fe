package io.shardline.producer.routing;

/**
 * The outcome of an epoch-checked add ({@link ShardRouting#add}): {@link Written} with the new entry id, or
 * {@link Refused} when the shard accepts writes under a newer routing epoch (nothing was written). Immutable.
 */
public sealed interface AddResult {

    /** The record was appended as entry {@code id}. */
    record Written(String id) implements AddResult {
    }

    /** Nothing was written: the shard is at a newer routing epoch ({@link StaleRouting}). */
    record Refused(StaleRouting stale) implements AddResult {
    }
}
