package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.ShardSet;
import java.util.Arrays;

/**
 * One member's shards by stream, appended in ascending stream order into two growing arrays that become the
 * arrays of a {@link io.shardline.api.assignor.StreamShardMap} (the order is checked once, by
 * {@link MemberAssignment#ofSorted(String[], ShardSet[])}). Not thread-safe.
 */
final class SortedStreamList {

    private String[] streams = new String[4];
    private ShardSet[] sets = new ShardSet[4];
    private int size;

    /** Appends {@code stream}, which must sort after every stream appended so far. */
    void append(String stream, ShardSet set) {
        if (size == streams.length) {
            streams = Arrays.copyOf(streams, size * 2);
            sets = Arrays.copyOf(sets, size * 2);
        }
        streams[size] = stream;
        sets[size] = set;
        size++;
    }

    /**
     * The member's assignment; the list must not be used afterwards.
     *
     * @throws IllegalArgumentException when streams were appended out of order
     */
    MemberAssignment toAssignment() {
        if (size < streams.length) {
            streams = Arrays.copyOf(streams, size);
            sets = Arrays.copyOf(sets, size);
        }
        return MemberAssignment.ofSorted(streams, sets);
    }
}
