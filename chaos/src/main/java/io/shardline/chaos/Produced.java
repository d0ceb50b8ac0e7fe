package io.shardline.chaos;

/**
 * One record the chaos producer wrote and Redis acknowledged ({@code XADD} returned its entry id). Immutable.
 *
 * @param shard the shard index
 * @param seq the producer's sequence number (unique over the run)
 * @param entryId the entry id Redis returned
 * @param ackedAtMs when the producer received the reply (epoch millis)
 */
public record Produced(int shard, long seq, EntryId entryId, long ackedAtMs) {
}
