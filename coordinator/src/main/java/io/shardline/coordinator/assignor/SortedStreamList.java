package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.ShardSet;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;

/**
 * One member's shards by stream, appended in ascending stream order, seen as a read-only {@link SortedMap} so
 * that {@link io.shardline.api.assignor.MemberAssignment} copies it in linear time (a {@code TreeMap} built
 * from a sorted map does no comparisons). Only what that copy needs is supported. Not thread-safe.
 */
final class SortedStreamList extends AbstractMap<String, ShardSet> implements SortedMap<String, ShardSet> {

    private String[] streams = new String[4];
    private ShardSet[] sets = new ShardSet[4];
    private int size;

    /** Appends {@code stream}, which must sort after every stream appended so far. */
    void append(String stream, ShardSet set) {
        if (size > 0 && streams[size - 1].compareTo(stream) >= 0) {
            throw new IllegalStateException("streams appended out of order: " + streams[size - 1] + ", " + stream);
        }
        if (size == streams.length) {
            streams = Arrays.copyOf(streams, size * 2);
            sets = Arrays.copyOf(sets, size * 2);
        }
        streams[size] = stream;
        sets[size] = set;
        size++;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Set<Entry<String, ShardSet>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, ShardSet>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < size;
                    }

                    @Override
                    public Entry<String, ShardSet> next() {
                        if (next >= size) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(streams[i], sets[i]);
                    }
                };
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    @Override
    public Comparator<? super String> comparator() {
        return null;
    }

    @Override
    public String firstKey() {
        if (size == 0) {
            throw new NoSuchElementException();
        }
        return streams[0];
    }

    @Override
    public String lastKey() {
        if (size == 0) {
            throw new NoSuchElementException();
        }
        return streams[size - 1];
    }

    @Override
    public SortedMap<String, ShardSet> subMap(String fromKey, String toKey) {
        throw new UnsupportedOperationException("not a general-purpose map");
    }

    @Override
    public SortedMap<String, ShardSet> headMap(String toKey) {
        throw new UnsupportedOperationException("not a general-purpose map");
    }

    @Override
    public SortedMap<String, ShardSet> tailMap(String fromKey) {
        throw new UnsupportedOperationException("not a general-purpose map");
    }

    /** Unused by the copy; kept consistent with {@link Map#get}. */
    @Override
    public ShardSet get(Object key) {
        int i = key instanceof String s ? Arrays.binarySearch(streams, 0, size, s) : -1;
        return i >= 0 ? sets[i] : null;
    }
}
