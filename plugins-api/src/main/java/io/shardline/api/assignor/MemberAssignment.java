package io.shardline.api.assignor;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The shards given to one member, by stream. Streams with no shard are left out. Immutable and thread-safe.
 *
 * @param shards stream name to the member's shards of it, sorted by stream
 */
public record MemberAssignment(SortedMap<String, ShardSet> shards) {

    /** The empty assignment. */
    public static final MemberAssignment EMPTY = new MemberAssignment(new TreeMap<>());

    /**
     * Copies into an unmodifiable sorted map, dropping empty shard sets. A map already in natural order is
     * copied in linear time (assignors build hundreds of thousands of these for a million shards).
     */
    public MemberAssignment {
        TreeMap<String, ShardSet> copy;
        if (shards.comparator() == null) {
            copy = new TreeMap<>(shards);
            copy.values().removeIf(ShardSet::isEmpty);
        } else {
            copy = new TreeMap<>();
            shards.forEach((stream, set) -> {
                if (!set.isEmpty()) {
                    copy.put(stream, set);
                }
            });
        }
        shards = Collections.unmodifiableSortedMap(copy);
    }

    /** An assignment of the given shards. */
    public static MemberAssignment of(Map<String, ShardSet> shards) {
        return new MemberAssignment(new TreeMap<>(shards));
    }

    /** The member's shards of {@code stream}; empty when none. */
    public ShardSet shardsOf(String stream) {
        return shards.getOrDefault(stream, ShardSet.EMPTY);
    }

    /** Total number of shards over all streams. */
    public int size() {
        return shards.values().stream().mapToInt(ShardSet::size).sum();
    }
}
