package io.shardline.api.handler;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The fields of one stream entry: an immutable map that keeps the order the producer wrote them in, held as one
 * array of alternating names and values. It is what the runtime hands handlers in {@link StreamRecord#fields()}:
 * building it costs one array per entry instead of the two hash maps of a defensive {@code LinkedHashMap} copy
 * (on the consumption hot path that copy was a tenth of the event loop's time), and {@link StreamRecord} keeps an
 * {@code EntryFields} as it is, since nobody can change it.
 *
 * <p>A runtime may build one that decodes its fields on first use ({@link #decodedOnFirstUse}): the Redis reply is
 * then turned into strings on the handler's thread, when the handler first looks at the fields, instead of on the
 * thread that read the reply (and not at all for a handler that never looks).
 *
 * <p>Behaves like any other {@link Map} ({@code equals}, {@code hashCode} and {@code toString} as in
 * {@link AbstractMap}); every mutator throws {@link UnsupportedOperationException}. A name written twice keeps its
 * first position and its last value, as a {@code LinkedHashMap} filled in order would. Lookups scan the array for
 * small entries and use a hash index for large ones. Thread-safe (immutable once decoded; decoding happens once,
 * under the map's lock).
 */
public final class EntryFields extends AbstractMap<String, String> {

    /** From this many fields on, lookups go through a hash index built when the map is. */
    static final int INDEX_FROM = 12;

    private static final EntryFields EMPTY = new EntryFields(new Contents(new String[0], null));

    /** The decoded fields: names and values alternating, and the index of large ones (else null). */
    private record Contents(String[] namesAndValues, Map<String, Integer> index) {
    }

    private volatile Contents contents;
    /** What {@link #decodedOnFirstUse} was given, until it is decoded. */
    private Supplier<String[]> undecoded;
    private Set<Map.Entry<String, String>> entrySet;

    private EntryFields(Contents contents) {
        this.contents = contents;
    }

    private EntryFields(Supplier<String[]> undecoded) {
        this.undecoded = undecoded;
    }

    /**
     * Fields that are decoded when first used: {@code namesAndValues} is called once, on the thread of the first
     * lookup, iteration, size or comparison, and must then give {@code name1, value1, name2, value2, ...} (checked as
     * by {@link #of}; a problem is thrown from that first use). For runtimes handing records to handlers; it keeps
     * what the supplier holds alive until then.
     */
    public static EntryFields decodedOnFirstUse(Supplier<String[]> namesAndValues) {
        return new EntryFields(Objects.requireNonNull(namesAndValues, "namesAndValues"));
    }

    private Contents contents() {
        Contents c = contents;
        if (c == null) {
            synchronized (this) {
                c = contents;
                if (c == null) {
                    c = checked(undecoded.get()).contents;
                    contents = c;
                    undecoded = null;
                }
            }
        }
        return c;
    }

    /**
     * The fields {@code name1, value1, name2, value2, ...} in that order (the array is copied).
     *
     * @throws IllegalArgumentException when the count is odd
     * @throws NullPointerException when a name or value is null
     */
    public static EntryFields of(String... namesAndValues) {
        return namesAndValues.length == 0 ? EMPTY : checked(namesAndValues.clone());
    }

    /** {@code kv} (owned by the caller no more) checked and folded into fields. */
    private static EntryFields checked(String[] kv) {
        if (kv.length % 2 != 0) {
            throw new IllegalArgumentException("entry fields: names and values must come in pairs, got "
                    + kv.length + " strings");
        }
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
        return new EntryFields(new Contents(kv, null));
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
        return new EntryFields(new Contents(exact, exact.length / 2 >= INDEX_FROM ? index : null));
    }

    private static int find(Contents c, Object name) {
        if (c.index() != null) {
            Integer at = c.index().get(name);
            return at == null ? -1 : at;
        }
        String[] namesAndValues = c.namesAndValues();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String get(Object name) {
        Contents c = contents();
        int at = find(c, name);
        return at < 0 ? null : c.namesAndValues()[at + 1];
    }

    @Override
    public boolean containsKey(Object name) {
        return find(contents(), name) >= 0;
    }

    @Override
    public int size() {
        return contents().namesAndValues().length / 2;
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
            String[] namesAndValues = contents().namesAndValues();
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
            return EntryFields.this.size();
        }
    }
}
