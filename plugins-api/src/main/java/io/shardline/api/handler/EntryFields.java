package io.shardline.api.handler;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The fields of one stream entry: an immutable map that keeps the order the producer wrote them in, held as one
 * array of alternating names and values. It is what the runtime hands handlers in {@link StreamRecord#fields()}:
 * building it costs one array per entry instead of the two hash maps of a defensive {@code LinkedHashMap} copy
 * (on the consumption hot path that copy was a tenth of the event loop's time), and {@link StreamRecord} keeps an
 * {@code EntryFields} as it is, since nobody can change it.
 *
 * <p>Behaves like any other {@link Map} ({@code equals}, {@code hashCode} and {@code toString} as in
 * {@link AbstractMap}); every mutator throws {@link UnsupportedOperationException}. A name written twice keeps its
 * first position and its last value, as a {@code LinkedHashMap} filled in order would. Lookups scan the array for
 * small entries and use a hash index for large ones. Thread-safe (immutable).
 */
public final class EntryFields extends AbstractMap<String, String> {

    /** From this many fields on, lookups go through a hash index built when the map is. */
    static final int INDEX_FROM = 12;

    private static final EntryFields EMPTY = new EntryFields(new String[0], null);

    private final String[] namesAndValues;
    private final Map<String, Integer> index;
    private Set<Map.Entry<String, String>> entrySet;

    private EntryFields(String[] namesAndValues, Map<String, Integer> index) {
        this.namesAndValues = namesAndValues;
        this.index = index;
    }

    /**
     * The fields {@code name1, value1, name2, value2, ...} in that order (the array is copied).
     *
     * @throws IllegalArgumentException when the count is odd
     * @throws NullPointerException when a name or value is null
     */
    public static EntryFields of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("entry fields: names and values must come in pairs, got "
                    + namesAndValues.length + " strings");
        }
        if (namesAndValues.length == 0) {
            return EMPTY;
        }
        String[] kv = namesAndValues.clone();
        for (int i = 0; i < kv.length; i++) {
            if (kv[i] == null) {
                throw new NullPointerException((i % 2 == 0 ? "name" : "value") + " of entry field " + (i / 2) + " is null");
            }
        }
        return kv.length / 2 >= INDEX_FROM ? indexed(kv) : scanned(kv);
    }

    /** The fields of {@code fields}, in its iteration order: the map itself when it is already an {@code EntryFields}. */
    public static EntryFields copyOf(Map<String, String> fields) {
        if (fields instanceof EntryFields e) {
            return e;
        }
        String[] kv = new String[fields.size() * 2];
        int i = 0;
        for (Map.Entry<String, String> f : fields.entrySet()) {
            kv[i++] = f.getKey();
            kv[i++] = f.getValue();
        }
        return of(kv);
    }

    private static EntryFields scanned(String[] kv) {
        int n = kv.length;
        for (int i = 2; i < n; i += 2) {
            for (int j = 0; j < i; j += 2) {
                if (kv[j].equals(kv[i])) {
                    return indexed(kv); // a repeated name: fold it the LinkedHashMap way
                }
            }
        }
        return new EntryFields(kv, null);
    }

    private static EntryFields indexed(String[] kv) {
        Map<String, Integer> index = new HashMap<>(kv.length);
        String[] folded = new String[kv.length];
        int n = 0;
        for (int i = 0; i < kv.length; i += 2) {
            Integer at = index.get(kv[i]);
            if (at == null) {
                index.put(kv[i], n);
                folded[n] = kv[i];
                folded[n + 1] = kv[i + 1];
                n += 2;
            } else {
                folded[at + 1] = kv[i + 1];
            }
        }
        String[] exact = n == kv.length ? folded : java.util.Arrays.copyOf(folded, n);
        return new EntryFields(exact, exact.length / 2 >= INDEX_FROM ? index : null);
    }

    private int find(Object name) {
        if (index != null) {
            Integer at = index.get(name);
            return at == null ? -1 : at;
        }
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String get(Object name) {
        int at = find(name);
        return at < 0 ? null : namesAndValues[at + 1];
    }

    @Override
    public boolean containsKey(Object name) {
        return find(name) >= 0;
    }

    @Override
    public int size() {
        return namesAndValues.length / 2;
    }

    @Override
    public Set<Map.Entry<String, String>> entrySet() {
        Set<Map.Entry<String, String>> s = entrySet;
        if (s == null) {
            s = new Entries();
            entrySet = s;
        }
        return s;
    }

    /** The entries in order; read-only. */
    private final class Entries extends AbstractSet<Map.Entry<String, String>> {
        @Override
        public Iterator<Map.Entry<String, String>> iterator() {
            return new Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < namesAndValues.length;
                }

                @Override
                public Map.Entry<String, String> next() {
                    if (next >= namesAndValues.length) {
                        throw new NoSuchElementException();
                    }
                    Map.Entry<String, String> e = new SimpleImmutableEntry<>(namesAndValues[next], namesAndValues[next + 1]);
                    next += 2;
                    return e;
                }
            };
        }

        @Override
        public int size() {
            return namesAndValues.length / 2;
        }
    }
}
