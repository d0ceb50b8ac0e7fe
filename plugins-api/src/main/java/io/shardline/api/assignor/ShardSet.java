package io.shardline.api.assignor;

import java.util.Arrays;
import java.util.Collection;
import java.util.stream.IntStream;

/**
 * An immutable, sorted set of shard numbers of one stream, stored as a compact {@code int[]} so that an
 * assignment of a million shards stays small. Immutable and thread-safe.
 */
public final class ShardSet {

    /** The empty set. */
    public static final ShardSet EMPTY = new ShardSet(new int[0]);

    private final int[] shards;

    private ShardSet(int[] sortedDistinct) {
        this.shards = sortedDistinct;
    }

    /** A set of the given shard numbers (any order, duplicates ignored). */
    public static ShardSet of(int... shards) {
        return fromArray(shards.clone());
    }

    /** A set of the given shard numbers (any order, duplicates ignored). */
    public static ShardSet of(Collection<Integer> shards) {
        return fromArray(shards.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The shards {@code 0..count-1}. */
    public static ShardSet range(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("shard count must be >= 0, was " + count);
        }
        return count == 0 ? EMPTY : new ShardSet(IntStream.range(0, count).toArray());
    }

    /**
     * Takes ownership of {@code shards} (the caller must not modify it afterwards): sorts it in place and
     * removes duplicates. Use this from assignors that build large arrays, to avoid a copy.
     */
    public static ShardSet fromArray(int[] shards) {
        if (shards.length == 0) {
            return EMPTY;
        }
        Arrays.sort(shards);
        int n = 1;
        for (int i = 1; i < shards.length; i++) {
            if (shards[i] != shards[n - 1]) {
                shards[n++] = shards[i];
            }
        }
        if (shards[0] < 0) {
            throw new IllegalArgumentException("shard numbers must be >= 0, was " + shards[0]);
        }
        return new ShardSet(n == shards.length ? shards : Arrays.copyOf(shards, n));
    }

    /** Number of shards in the set. */
    public int size() {
        return shards.length;
    }

    /** True when the set has no shard. */
    public boolean isEmpty() {
        return shards.length == 0;
    }

    /** True when {@code shard} is in the set (binary search). */
    public boolean contains(int shard) {
        return Arrays.binarySearch(shards, shard) >= 0;
    }

    /** The {@code i}-th smallest shard number. */
    public int get(int i) {
        return shards[i];
    }

    /** The shard numbers, ascending, as a fresh array. */
    public int[] toArray() {
        return shards.clone();
    }

    /** The shard numbers, ascending. */
    public IntStream stream() {
        return Arrays.stream(shards);
    }

    /** The largest shard number, or -1 when empty. */
    public int max() {
        return shards.length == 0 ? -1 : shards[shards.length - 1];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShardSet other && Arrays.equals(shards, other.shards);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(shards);
    }

    @Override
    public String toString() {
        return Arrays.toString(shards);
    }
}
