package io.shardline.api.assignor;

import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable list of distinct stream names in ascending natural ({@link String#compareTo}) order, checked
 * once and then shared by every {@link StreamShardMap} built over it. Assignors make one per {@code assign}
 * call (the streams of the group) and hand it to {@link MemberAssignment#ofSorted(SortedStreams, int[],
 * ShardSet[])} for each member, which then builds the member's map without comparing names again: members with
 * identical subscriptions share one key array. Immutable and thread-safe.
 */
public final class SortedStreams {

    /** The empty list. */
    public static final SortedStreams EMPTY = new SortedStreams(new String[0]);

    /** The names, ascending and distinct; never modified. */
    final String[] names;

    private SortedStreams(String[] names) {
        this.names = names;
    }

    /**
     * The given names, which must be non-null, distinct and in ascending natural order (one pass, one
     * comparison per name). The array is copied.
     *
     * @throws IllegalArgumentException naming the first pair out of order, or the position of a null name
     */
    public static SortedStreams of(String... names) {
        String[] copy = names.clone();
        requireSorted(copy);
        return copy.length == 0 ? EMPTY : new SortedStreams(copy);
    }

    /**
     * Checks that {@code names} is non-null, without null elements, strictly ascending in natural order.
     *
     * @throws IllegalArgumentException naming the first pair out of order, or the position of a null name
     */
    static void requireSorted(String[] names) {
        Objects.requireNonNull(names, "streams");
        for (int i = 0; i < names.length; i++) {
            if (names[i] == null) {
                throw new IllegalArgumentException("stream name at position " + i + " is null");
            }
            if (i > 0 && names[i - 1].compareTo(names[i]) >= 0) {
                throw new IllegalArgumentException("stream names must be distinct and ascending: '" + names[i - 1]
                        + "' (position " + (i - 1) + ") is not before '" + names[i] + "' (position " + i + ")");
            }
        }
    }

    /** Number of names. */
    public int size() {
        return names.length;
    }

    /** The {@code i}-th name in ascending order. */
    public String get(int i) {
        return names[i];
    }

    /** The position of {@code name} (binary search), or -1 when absent. */
    public int indexOf(String name) {
        int i = Arrays.binarySearch(names, Objects.requireNonNull(name, "name"));
        return i >= 0 ? i : -1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SortedStreams other && Arrays.equals(names, other.names);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(names);
    }

    @Override
    public String toString() {
        return Arrays.toString(names);
    }
}
