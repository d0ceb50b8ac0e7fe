package io.shardline.api.assignor;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * An immutable {@link SortedMap} from stream name to a non-empty {@link ShardSet}, in natural order of the
 * names, stored as two parallel arrays: the names in a {@code String[]} (which members with the same streams
 * share) and the sets in a {@code ShardSet[]}. Look-ups are binary searches. It is what
 * {@link MemberAssignment} keeps without copying, so an assignor can hand out a million shards without building
 * a million tree entries.
 *
 * <p>The full {@code SortedMap} contract holds: iteration in ascending name order, {@link #equals} and
 * {@link #hashCode} as {@link Map} defines them (equal to a {@code TreeMap} or {@code HashMap} with the same
 * entries), {@link #subMap}, {@link #headMap} and {@link #tailMap} as immutable maps over the same arrays that
 * reject keys outside their range as {@code TreeMap}'s do. Every mutator throws
 * {@link UnsupportedOperationException}; {@code null} keys are not permitted ({@link NullPointerException}).
 * Immutable and thread-safe.
 */
public final class StreamShardMap extends AbstractMap<String, ShardSet> implements SortedMap<String, ShardSet> {

    /** The empty map. */
    public static final StreamShardMap EMPTY = new StreamShardMap(new String[0], new ShardSet[0], 0, 0, null, null);

    private final String[] keys;
    private final ShardSet[] values;
    /** First index of this map in {@link #keys}. */
    private final int from;
    /** End index (exclusive) of this map in {@link #keys}. */
    private final int to;
    /** Lowest key a sub-map of this map may name (inclusive), or null when unbounded. */
    private final String lowBound;
    /** Highest key a sub-map of this map may name (the range's exclusive end), or null when unbounded. */
    private final String highBound;

    private StreamShardMap(String[] keys, ShardSet[] values, int from, int to, String lowBound, String highBound) {
        this.keys = keys;
        this.values = values;
        this.from = from;
        this.to = to;
        this.lowBound = lowBound;
        this.highBound = highBound;
    }

    /**
     * The map {@code streams[i] -> sets[i]}; null and empty sets are dropped. One pass: the names must be
     * non-null, distinct and ascending in natural order (one comparison each). Takes ownership of both arrays
     * (the caller must not modify them afterwards); they are copied only when a set is dropped.
     *
     * @throws IllegalArgumentException when the lengths differ, or naming the first name out of order or null
     */
    public static StreamShardMap of(String[] streams, ShardSet[] sets) {
        requireSameLength(streams.length, sets.length);
        SortedStreams.requireSorted(streams);
        return compact(streams, sets);
    }

    /**
     * The map {@code streams.get(i) -> sets[i]} over every name of {@code streams}; null and empty sets are
     * dropped. No name is compared; when no set is dropped the map shares the key array of {@code streams}.
     * Takes ownership of {@code sets} (the caller must not modify it afterwards).
     *
     * @throws IllegalArgumentException when {@code sets} is not as long as {@code streams}
     */
    public static StreamShardMap of(SortedStreams streams, ShardSet[] sets) {
        requireSameLength(streams.size(), sets.length);
        return compact(streams.names, sets);
    }

    /**
     * The map {@code streams.get(indices[i]) -> sets[i]}: {@code indices} must ascend strictly within
     * {@code streams} (checked in one pass, by {@code int} comparison: no name is compared). Null and empty
     * sets are dropped. When {@code indices} covers every name and no set is dropped, the map shares the key
     * array of {@code streams}. {@code indices} is not kept; takes ownership of {@code sets} (the caller must not
     * modify it afterwards).
     *
     * @throws IllegalArgumentException when the lengths differ, or naming the first index out of order or range
     */
    public static StreamShardMap of(SortedStreams streams, int[] indices, ShardSet[] sets) {
        requireSameLength(indices.length, sets.length);
        String[] names = streams.names;
        int kept = 0;
        for (int i = 0; i < indices.length; i++) {
            int t = indices[i];
            if (t < 0 || t >= names.length) {
                throw new IllegalArgumentException("stream index " + t + " at position " + i + " is outside 0.."
                        + (names.length - 1));
            }
            if (i > 0 && indices[i - 1] >= t) {
                throw new IllegalArgumentException("stream indices must ascend: " + indices[i - 1] + " (position "
                        + (i - 1) + ") is not below " + t + " (position " + i + ")");
            }
            if (sets[i] != null && !sets[i].isEmpty()) {
                kept++;
            }
        }
        if (kept == names.length) {
            // strictly ascending within 0..n-1 and n long: the identity
            return new StreamShardMap(names, sets, 0, kept, null, null);
        }
        if (kept == 0) {
            return EMPTY;
        }
        String[] k = new String[kept];
        ShardSet[] v = kept == sets.length ? sets : new ShardSet[kept];
        int n = 0;
        for (int i = 0; i < indices.length; i++) {
            if (sets[i] != null && !sets[i].isEmpty()) {
                k[n] = names[indices[i]];
                v[n++] = sets[i];
            }
        }
        return new StreamShardMap(k, v, 0, kept, null, null);
    }

    /**
     * The entries of {@code shards} with a non-empty set, in natural order of the names. A
     * {@code StreamShardMap} is returned as it is; a {@code SortedMap} in natural order is copied in one pass,
     * any other map sorted first.
     *
     * @throws IllegalArgumentException naming a null name
     * @throws NullPointerException when a set is null
     */
    public static StreamShardMap copyOf(Map<String, ShardSet> shards) {
        if (shards instanceof StreamShardMap map) {
            return map;
        }
        Map<String, ShardSet> sorted = shards instanceof SortedMap<String, ShardSet> s && s.comparator() == null
                ? shards
                : new TreeMap<>(shards);
        String[] k = new String[sorted.size()];
        ShardSet[] v = new ShardSet[k.length];
        int n = 0;
        for (Map.Entry<String, ShardSet> e : sorted.entrySet()) {
            k[n] = e.getKey();
            v[n++] = Objects.requireNonNull(e.getValue(), () -> "shard set of stream '" + e.getKey() + "' is null");
        }
        return of(k, v);
    }

    private static void requireSameLength(int keys, int sets) {
        if (keys != sets) {
            throw new IllegalArgumentException("got " + keys + " stream names but " + sets + " shard sets");
        }
    }

    /** Keeps {@code streams} (sorted) and {@code sets} as they are, or copies them without the empty sets. */
    private static StreamShardMap compact(String[] streams, ShardSet[] sets) {
        int kept = 0;
        for (ShardSet set : sets) {
            if (set != null && !set.isEmpty()) {
                kept++;
            }
        }
        if (kept == sets.length) {
            return kept == 0 ? EMPTY : new StreamShardMap(streams, sets, 0, kept, null, null);
        }
        if (kept == 0) {
            return EMPTY;
        }
        String[] k = new String[kept];
        ShardSet[] v = new ShardSet[kept];
        int n = 0;
        for (int i = 0; i < sets.length; i++) {
            if (sets[i] != null && !sets[i].isEmpty()) {
                k[n] = streams[i];
                v[n++] = sets[i];
            }
        }
        return new StreamShardMap(k, v, 0, kept, null, null);
    }

    /** Index of {@code key} in {@link #keys} within this map, or {@code -(insertion point) - 1}. */
    private int search(String key) {
        return Arrays.binarySearch(keys, from, to, key);
    }

    /** First index within this map whose key is {@code >= key}. */
    private int ceiling(String key) {
        return NameRange.ceiling(keys, from, to, key);
    }

    @Override
    public int size() {
        return to - from;
    }

    @Override
    public boolean isEmpty() {
        return to == from;
    }

    @Override
    public ShardSet get(Object key) {
        Objects.requireNonNull(key, "key");
        if (!(key instanceof String s)) {
            return null;
        }
        int i = search(s);
        return i >= 0 ? values[i] : null;
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public boolean containsValue(Object value) {
        for (int i = from; i < to; i++) {
            if (values[i].equals(value)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super ShardSet> action) {
        for (int i = from; i < to; i++) {
            action.accept(keys[i], values[i]);
        }
    }

    @Override
    public Comparator<? super String> comparator() {
        return null;
    }

    @Override
    public String firstKey() {
        if (isEmpty()) {
            throw new NoSuchElementException("empty map");
        }
        return keys[from];
    }

    @Override
    public String lastKey() {
        if (isEmpty()) {
            throw new NoSuchElementException("empty map");
        }
        return keys[to - 1];
    }

    /**
     * The entries from {@code fromKey} (inclusive) to {@code toKey} (exclusive), as an immutable map over the
     * same arrays.
     *
     * @throws IllegalArgumentException when {@code fromKey > toKey}, or either lies outside this map's range
     */
    @Override
    public SortedMap<String, ShardSet> subMap(String fromKey, String toKey) {
        requireInRange(fromKey);
        requireInRange(toKey);
        if (fromKey.compareTo(toKey) > 0) {
            throw new IllegalArgumentException("fromKey '" + fromKey + "' is after toKey '" + toKey + "'");
        }
        return new StreamShardMap(keys, values, ceiling(fromKey), ceiling(toKey), fromKey, toKey);
    }

    /**
     * The entries before {@code toKey}, as an immutable map over the same arrays.
     *
     * @throws IllegalArgumentException when {@code toKey} lies outside this map's range
     */
    @Override
    public SortedMap<String, ShardSet> headMap(String toKey) {
        requireInRange(toKey);
        return new StreamShardMap(keys, values, from, ceiling(toKey), lowBound, toKey);
    }

    /**
     * The entries from {@code fromKey} on, as an immutable map over the same arrays.
     *
     * @throws IllegalArgumentException when {@code fromKey} lies outside this map's range
     */
    @Override
    public SortedMap<String, ShardSet> tailMap(String fromKey) {
        requireInRange(fromKey);
        return new StreamShardMap(keys, values, ceiling(fromKey), to, fromKey, highBound);
    }

    /** Checks {@code key} against this map's closed range, as {@code TreeMap}'s sub-maps do. */
    private void requireInRange(String key) {
        NameRange.requireInRange(key, lowBound, highBound, "key", "key ", "map");
    }

    @Override
    public Set<Entry<String, ShardSet>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, ShardSet>> iterator() {
                return new Cursor<>() {
                    @Override
                    Entry<String, ShardSet> at(int i) {
                        return new SimpleImmutableEntry<>(keys[i], values[i]);
                    }
                };
            }

            @Override
            public int size() {
                return StreamShardMap.this.size();
            }

            @Override
            public boolean contains(Object o) {
                if (!(o instanceof Entry<?, ?> e) || !(e.getKey() instanceof String key)) {
                    return false;
                }
                ShardSet set = get(key);
                return set != null && set.equals(e.getValue());
            }
        };
    }

    @Override
    public Set<String> keySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<String> iterator() {
                return new Cursor<>() {
                    @Override
                    String at(int i) {
                        return keys[i];
                    }
                };
            }

            @Override
            public int size() {
                return StreamShardMap.this.size();
            }

            @Override
            public boolean contains(Object o) {
                return o != null && containsKey(o);
            }
        };
    }

    @Override
    public Collection<ShardSet> values() {
        return new AbstractCollection<>() {
            @Override
            public Iterator<ShardSet> iterator() {
                return new Cursor<>() {
                    @Override
                    ShardSet at(int i) {
                        return values[i];
                    }
                };
            }

            @Override
            public int size() {
                return StreamShardMap.this.size();
            }
        };
    }

    /** Equal to any {@link Map} with the same entries; compares the arrays directly against another of these. */
    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (o instanceof StreamShardMap other) {
            return Arrays.equals(keys, from, to, other.keys, other.from, other.to)
                    && Arrays.equals(values, from, to, other.values, other.from, other.to);
        }
        return super.equals(o);
    }

    /** As {@link Map#hashCode}: the sum of {@code key.hashCode() ^ value.hashCode()} over the entries. */
    @Override
    public int hashCode() {
        int h = 0;
        for (int i = from; i < to; i++) {
            h += keys[i].hashCode() ^ values[i].hashCode();
        }
        return h;
    }

    @Override
    public ShardSet put(String key, ShardSet value) {
        throw immutable();
    }

    @Override
    public ShardSet remove(Object key) {
        throw immutable();
    }

    @Override
    public void putAll(Map<? extends String, ? extends ShardSet> m) {
        throw immutable();
    }

    @Override
    public void clear() {
        throw immutable();
    }

    @Override
    public void replaceAll(BiFunction<? super String, ? super ShardSet, ? extends ShardSet> function) {
        throw immutable();
    }

    @Override
    public ShardSet putIfAbsent(String key, ShardSet value) {
        throw immutable();
    }

    @Override
    public boolean remove(Object key, Object value) {
        throw immutable();
    }

    @Override
    public boolean replace(String key, ShardSet oldValue, ShardSet newValue) {
        throw immutable();
    }

    @Override
    public ShardSet replace(String key, ShardSet value) {
        throw immutable();
    }

    @Override
    public ShardSet computeIfAbsent(String key, Function<? super String, ? extends ShardSet> mappingFunction) {
        throw immutable();
    }

    @Override
    public ShardSet computeIfPresent(String key,
            BiFunction<? super String, ? super ShardSet, ? extends ShardSet> remappingFunction) {
        throw immutable();
    }

    @Override
    public ShardSet compute(String key,
            BiFunction<? super String, ? super ShardSet, ? extends ShardSet> remappingFunction) {
        throw immutable();
    }

    @Override
    public ShardSet merge(String key, ShardSet value,
            BiFunction<? super ShardSet, ? super ShardSet, ? extends ShardSet> remappingFunction) {
        throw immutable();
    }

    private static UnsupportedOperationException immutable() {
        return new UnsupportedOperationException("a StreamShardMap is immutable");
    }

    /** An ascending, read-only iterator over this map's indices. */
    private abstract class Cursor<T> implements Iterator<T> {

        private int next = from;

        /** The element at array index {@code i}. */
        abstract T at(int i);

        @Override
        public boolean hasNext() {
            return next < to;
        }

        @Override
        public T next() {
            if (next >= to) {
                throw new NoSuchElementException();
            }
            return at(next++);
        }
    }
}
