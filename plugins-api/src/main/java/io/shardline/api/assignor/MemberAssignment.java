package io.shardline.api.assignor;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The shards given to one member, by stream. Streams with no shard are left out. Immutable and thread-safe.
 *
 * <p>A {@link StreamShardMap} is kept as it is (it is immutable, sorted by name and free of empty sets): the
 * {@code ofSorted} factories build one from arrays, which is how assignors should return large assignments.
 * Any other map is copied into an unmodifiable sorted map without its empty sets.
 *
 * @param shards stream name to the member's shards of it, sorted by stream
 */
public record MemberAssignment(SortedMap<String, ShardSet> shards) {

    /** The empty assignment. */
    public static final MemberAssignment EMPTY = new MemberAssignment(StreamShardMap.EMPTY);

    /**
     * Keeps a {@link StreamShardMap}; copies any other map into an unmodifiable sorted map in natural order,
     * dropping empty shard sets. A map already in natural order is copied in linear time.
     */
    public MemberAssignment {
        Objects.requireNonNull(shards, "shards");
        if (!(shards instanceof StreamShardMap)) {
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
    }

    /** An assignment of the given shards (any map; copied, empty sets dropped). */
    public static MemberAssignment of(Map<String, ShardSet> shards) {
        return new MemberAssignment(new TreeMap<>(shards));
    }

    /**
     * The assignment {@code streams[i] -> sets[i]}, without copying: see {@link StreamShardMap#of(String[],
     * ShardSet[])} (names distinct and ascending, checked in one pass; null and empty sets dropped; takes
     * ownership of both arrays).
     *
     * @throws IllegalArgumentException when the lengths differ, or naming the first name out of order or null
     */
    public static MemberAssignment ofSorted(String[] streams, ShardSet[] sets) {
        return new MemberAssignment(StreamShardMap.of(streams, sets));
    }

    /**
     * The assignment {@code streams.get(i) -> sets[i]} over every name of {@code streams}, without copying or
     * comparing names: see {@link StreamShardMap#of(SortedStreams, ShardSet[])} (null and empty sets dropped;
     * takes ownership of {@code sets}).
     *
     * @throws IllegalArgumentException when {@code sets} is not as long as {@code streams}
     */
    public static MemberAssignment ofSorted(SortedStreams streams, ShardSet[] sets) {
        return new MemberAssignment(StreamShardMap.of(streams, sets));
    }

    /**
     * The assignment {@code streams.get(indices[i]) -> sets[i]}, {@code indices} strictly ascending, without
     * comparing names: see {@link StreamShardMap#of(SortedStreams, int[], ShardSet[])} (null and empty sets
     * dropped; takes ownership of {@code sets}; shares the key array of {@code streams} when every name is
     * given a set).
     *
     * @throws IllegalArgumentException when the lengths differ, or naming the first index out of order or range
     */
    public static MemberAssignment ofSorted(SortedStreams streams, int[] indices, ShardSet[] sets) {
        return new MemberAssignment(StreamShardMap.of(streams, indices, sets));
    }

    /** The member's shards of {@code stream}; empty when none. */
    public ShardSet shardsOf(String stream) {
        ShardSet set = shards.get(stream);
        return set == null ? ShardSet.EMPTY : set;
    }

    /** Total number of shards over all streams. */
    public int size() {
        int n = 0;
        for (ShardSet set : shards.values()) {
            n += set.size();
        }
        return n;
    }
}
