package io.shardline.chaos;

import java.util.List;
import java.util.Set;

/**
 * What Redis holds for one shard at the end of a run. Immutable.
 *
 * @param shard the shard index
 * @param entries every entry id still in the stream, in stream order (the chaos listener acks without delete)
 * @param pending the entry ids in the group's pending entries list (delivered, not acknowledged)
 * @param lastDelivered the group's last-delivered id, or {@code null} when the group does not exist
 */
public record ShardState(int shard, List<EntryId> entries, Set<EntryId> pending, EntryId lastDelivered) {

    /** Copies. */
    public ShardState {
        entries = List.copyOf(entries);
        pending = Set.copyOf(pending);
    }

    /** True when the group acknowledged the entry: delivered (at or before last-delivered) and not pending. */
    public boolean acked(EntryId id) {
        return lastDelivered != null && id.compareTo(lastDelivered) <= 0 && !pending.contains(id);
    }

    /** The entries the group acknowledged. */
    public List<EntryId> ackedEntries() {
        return entries.stream().filter(this::acked).toList();
    }
}
