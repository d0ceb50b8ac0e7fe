package io.shardline.api.assignor;

import java.util.Arrays;
import java.util.Objects;

/**
 * The range arithmetic shared by the array-backed sorted views {@link StreamNameSet} and {@link StreamShardMap}:
 * both hold a slice {@code [from, to)} of an ascending array of stream names, bounded like {@code TreeMap}'s
 * sub-maps by an optional low (inclusive) and high (exclusive) name. Stateless.
 */
final class NameRange {

    private NameRange() {
    }

    /** First index in {@code names[from, to)} whose name is {@code >= name}. */
    static int ceiling(String[] names, int from, int to, String name) {
        int i = Arrays.binarySearch(names, from, to, name);
        return i >= 0 ? i : -i - 1;
    }

    /**
     * Checks {@code name} against the closed range {@code [low, high]} (null: unbounded), as {@code TreeMap}'s
     * sub-maps do.
     *
     * @param label the null-check message; {@code prefix} and {@code what} how the error names the value and the
     *     view, e.g. {@code "key "} and {@code "map"}
     * @throws IllegalArgumentException naming the value and the range when it lies outside
     */
    static void requireInRange(String name, String low, String high, String label, String prefix, String what) {
        Objects.requireNonNull(name, label);
        if (low != null && name.compareTo(low) < 0 || high != null && name.compareTo(high) > 0) {
            throw new IllegalArgumentException(prefix + "'" + name + "' is outside this " + what + "'s range ["
                    + (low == null ? "" : low) + ", " + (high == null ? "" : high) + ")");
        }
    }
}
