package io.shardline.api.assignor;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * An immutable {@link SortedSet} of stream names in natural order, stored as a sorted {@code String[]}: what
 * {@link MemberSubscription} keeps as a member's subscriptions. Iterating it is a walk over an array (an
 * assignor compares a million subscriptions of identical members in a few milliseconds), membership is a
 * binary search, and a set given to {@link MemberSubscription} again is kept, not copied, so members built
 * from one set share it.
 *
 * <p>The full {@code SortedSet} contract holds: ascending iteration, {@link #equals} and {@link #hashCode} as
 * {@link Set} defines them (equal to a {@code TreeSet} or {@code HashSet} of the same names), {@link #subSet},
 * {@link #headSet} and {@link #tailSet} as immutable sets over the same array that reject elements outside
 * their range as {@code TreeSet}'s do. Every mutator throws {@link UnsupportedOperationException}; {@code null}
 * is not an element ({@link NullPointerException}). Immutable and thread-safe.
 */
public final class StreamNameSet extends AbstractSet<String> implements SortedSet<String> {

    /** The empty set. */
    public static final StreamNameSet EMPTY = new StreamNameSet(new String[0], 0, 0, null, null);

    private final String[] names;
    /** First index of this set in {@link #names}. */
    private final int from;
    /** End index (exclusive) of this set in {@link #names}. */
    private final int to;
    /** Lowest element a subset of this set may name (inclusive), or null when unbounded. */
    private final String lowBound;
    /** Highest element a subset of this set may name (the range's exclusive end), or null when unbounded. */
    private final String highBound;

    private StreamNameSet(String[] names, int from, int to, String lowBound, String highBound) {
        this.names = names;
        this.from = from;
        this.to = to;
        this.lowBound = lowBound;
        this.highBound = highBound;
    }

    /**
     * The names of {@code streams} in natural order, duplicates dropped. A {@code StreamNameSet} is returned as
     * it is; a {@code SortedSet} in natural order is copied in one pass, anything else sorted.
     *
     * @throws IllegalArgumentException naming the position of a null name
     */
    public static StreamNameSet copyOf(Collection<String> streams) {
        if (streams instanceof StreamNameSet set) {
            return set;
        }
        String[] array = streams.toArray(new String[0]);
        for (int i = 0; i < array.length; i++) {
            if (array[i] == null) {
                throw new IllegalArgumentException("stream name at position " + i + " is null");
            }
        }
        if (!(streams instanceof SortedSet<?> sorted && sorted.comparator() == null)) {
            array = new TreeSet<>(Arrays.asList(array)).toArray(new String[0]);
        }
        return array.length == 0 ? EMPTY : new StreamNameSet(array, 0, array.length, null, null);
    }

    /** The given names (any order, duplicates dropped). */
    public static StreamNameSet of(String... streams) {
        return copyOf(Arrays.asList(streams));
    }

    /**
     * True when both sets hold the same names; in one walk over the two arrays with an identity check first
     * (names parsed once are shared), and at once when both are views of the same array range.
     */
    public boolean sameNames(StreamNameSet other) {
        if (other == this || other.names == names && other.from == from && other.to == to) {
            return true;
        }
        if (other.size() != size()) {
            return false;
        }
        for (int i = from, j = other.from; i < to; i++, j++) {
            String a = names[i];
            String b = other.names[j];
            if (a != b && !a.equals(b)) {
                return false;
            }
        }
        return true;
    }

    /** The {@code i}-th name in ascending order. */
    public String get(int i) {
        Objects.checkIndex(i, size());
        return names[from + i];
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
    public boolean contains(Object o) {
        Objects.requireNonNull(o, "stream");
        return o instanceof String s && Arrays.binarySearch(names, from, to, s) >= 0;
    }

    @Override
    public Iterator<String> iterator() {
        return new Iterator<>() {
            private int next = from;

            @Override
            public boolean hasNext() {
                return next < to;
            }

            @Override
            public String next() {
                if (next >= to) {
                    throw new NoSuchElementException();
                }
                return names[next++];
            }
        };
    }

    @Override
    public Object[] toArray() {
        return Arrays.copyOfRange(names, from, to, Object[].class);
    }

    @Override
    public Comparator<? super String> comparator() {
        return null;
    }

    @Override
    public String first() {
        if (isEmpty()) {
            throw new NoSuchElementException("empty set");
        }
        return names[from];
    }

    @Override
    public String last() {
        if (isEmpty()) {
            throw new NoSuchElementException("empty set");
        }
        return names[to - 1];
    }

    /**
     * The names from {@code fromElement} (inclusive) to {@code toElement} (exclusive), over the same array.
     *
     * @throws IllegalArgumentException when {@code fromElement > toElement}, or either is outside this set's range
     */
    @Override
    public SortedSet<String> subSet(String fromElement, String toElement) {
        requireInRange(fromElement);
        requireInRange(toElement);
        if (fromElement.compareTo(toElement) > 0) {
            throw new IllegalArgumentException("fromElement '" + fromElement + "' is after toElement '" + toElement
                    + "'");
        }
        return new StreamNameSet(names, ceiling(fromElement), ceiling(toElement), fromElement, toElement);
    }

    /**
     * The names before {@code toElement}, over the same array.
     *
     * @throws IllegalArgumentException when {@code toElement} is outside this set's range
     */
    @Override
    public SortedSet<String> headSet(String toElement) {
        requireInRange(toElement);
        return new StreamNameSet(names, from, ceiling(toElement), lowBound, toElement);
    }

    /**
     * The names from {@code fromElement} on, over the same array.
     *
     * @throws IllegalArgumentException when {@code fromElement} is outside this set's range
     */
    @Override
    public SortedSet<String> tailSet(String fromElement) {
        requireInRange(fromElement);
        return new StreamNameSet(names, ceiling(fromElement), to, fromElement, highBound);
    }

    private int ceiling(String name) {
        return NameRange.ceiling(names, from, to, name);
    }

    private void requireInRange(String name) {
        NameRange.requireInRange(name, lowBound, highBound, "stream", "", "set");
    }

    /** Equal to any {@link Set} with the same names; compares the arrays directly against another of these. */
    @Override
    public boolean equals(Object o) {
        if (o instanceof StreamNameSet other) {
            return sameNames(other);
        }
        return super.equals(o);
    }

    /** As {@link Set#hashCode}: the sum of the names' hash codes. */
    @Override
    public int hashCode() {
        int h = 0;
        for (int i = from; i < to; i++) {
            h += names[i].hashCode();
        }
        return h;
    }

    @Override
    public boolean add(String name) {
        throw immutable();
    }

    @Override
    public boolean remove(Object o) {
        throw immutable();
    }

    @Override
    public boolean addAll(Collection<? extends String> c) {
        throw immutable();
    }

    @Override
    public boolean removeAll(Collection<?> c) {
        throw immutable();
    }

    @Override
    public boolean retainAll(Collection<?> c) {
        throw immutable();
    }

    @Override
    public boolean removeIf(Predicate<? super String> filter) {
        throw immutable();
    }

    @Override
    public void clear() {
        throw immutable();
    }

    private static UnsupportedOperationException immutable() {
        return new UnsupportedOperationException("a StreamNameSet is immutable");
    }
}
