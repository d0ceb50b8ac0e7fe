package io.shardline.chaos;

/**
 * One record's identity in a run: its shard and entry id. Immutable.
 *
 * @param shard the shard index
 * @param id the entry id
 */
public record ShardEntry(int shard, EntryId id) implements Comparable<ShardEntry> {

    @Override
    public int compareTo(ShardEntry other) {
        int c = Integer.compare(shard, other.shard);
        return c != 0 ? c : id.compareTo(other.id);
    }

    @Override
    public String toString() {
        return shard + "/" + id;
    }
}
