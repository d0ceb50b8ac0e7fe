package io.shardline.api.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EntryFieldsTest {

    @Test
    void keepsOrderAndBehavesLikeTheLinkedHashMapItReplaces() {
        EntryFields f = EntryFields.of("z", "1", "a", "2", "m", "3");
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("z", "1");
        expected.put("a", "2");
        expected.put("m", "3");

        assertThat(f.keySet()).containsExactly("z", "a", "m");
        assertThat(f.values()).containsExactly("1", "2", "3");
        assertThat(f).isEqualTo(expected);
        assertThat(expected).isEqualTo(f);
        assertThat(f.hashCode()).isEqualTo(expected.hashCode());
        assertThat(f.toString()).isEqualTo(expected.toString());
        assertThat(f.get("a")).isEqualTo("2");
        assertThat(f.get("b")).isNull();
        assertThat(f.containsKey("m")).isTrue();
        assertThat(EntryFields.of()).isEmpty();
    }

    @Test
    void aRepeatedNameKeepsItsFirstPlaceAndItsLastValue() {
        Map<String, String> expected = new LinkedHashMap<>();
        String[] kv = {"a", "1", "b", "2", "a", "3"};
        for (int i = 0; i < kv.length; i += 2) {
            expected.put(kv[i], kv[i + 1]);
        }
        EntryFields f = EntryFields.of(kv);

        assertThat(f).hasSize(2).containsExactly(Map.entry("a", "3"), Map.entry("b", "2"));
        assertThat(f).isEqualTo(expected);
    }

    @Test
    void largeEntriesAreLookedUpThroughAnIndex() {
        int n = EntryFields.INDEX_FROM * 3;
        String[] kv = new String[n * 2 + 2];
        Map<String, String> expected = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            kv[2 * i] = "f" + (n - i);
            kv[2 * i + 1] = "v" + i;
            expected.put(kv[2 * i], kv[2 * i + 1]);
        }
        kv[2 * n] = "f" + n; // a repeat of the first name
        kv[2 * n + 1] = "last";
        expected.put("f" + n, "last");
        EntryFields f = EntryFields.of(kv);

        assertThat(f).isEqualTo(expected);
        assertThat(f.keySet()).containsExactlyElementsOf(expected.keySet());
        for (Map.Entry<String, String> e : expected.entrySet()) {
            assertThat(f.get(e.getKey())).isEqualTo(e.getValue());
        }
        assertThat(f.get("nope")).isNull();
    }

    @Test
    void isImmutableAndCopiesItsInput() {
        String[] kv = {"a", "1"};
        EntryFields f = EntryFields.of(kv);
        kv[1] = "changed";

        assertThat(f.get("a")).isEqualTo("1");
        assertThatThrownBy(() -> f.put("b", "2")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> f.remove("a")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(f::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> f.entrySet().iterator().remove()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(EntryFields.copyOf(f)).isSameAs(f);
    }

    @Test
    void badInputIsRefusedWithWhatWasWrong() {
        assertThatThrownBy(() -> EntryFields.of("a", "1", "b")).hasMessageContaining("pairs").hasMessageContaining("3");
        assertThatThrownBy(() -> EntryFields.of("a", null)).hasMessageContaining("value of entry field 0");
    }

    @Test
    void aStreamRecordKeepsEntryFieldsAsTheyAre() {
        EntryFields f = EntryFields.of("n", "1");
        StreamRecord r = new StreamRecord(new ShardId("orders", 1), "1-0", f, 1);

        assertThat(r.fields()).isSameAs(f);
        assertThat(new StreamRecord(new ShardId("orders", 1), "1-0", Map.of("n", "1"), 1)).isEqualTo(r);
    }

    @Test
    void fieldsDecodedOnFirstUseAreDecodedOnceWhenFirstLookedAt() {
        java.util.concurrent.atomic.AtomicInteger decodes = new java.util.concurrent.atomic.AtomicInteger();
        EntryFields lazy = EntryFields.decodedOnFirstUse(() -> {
            decodes.incrementAndGet();
            return new String[] {"b", "2", "a", "1", "b", "3"};
        });
        StreamRecord record = new StreamRecord(new ShardId("orders", 0), "1-0", lazy, 1);
        assertThat(decodes).as("building a record does not decode").hasValue(0);
        assertThat(record.fields()).isSameAs(lazy);

        assertThat(record.field("a")).isEqualTo("1");
        assertThat(record.fields()).containsExactly(Map.entry("b", "3"), Map.entry("a", "1")).isEqualTo(EntryFields.of("b", "3", "a", "1"));
        assertThat(lazy.size()).isEqualTo(2);
        assertThat(decodes).as("decoded once").hasValue(1);
    }

    @Test
    void badFieldsDecodedOnFirstUseFailThatUse() {
        EntryFields odd = EntryFields.decodedOnFirstUse(() -> new String[] {"a", "1", "b"});
        assertThatThrownBy(() -> odd.get("a")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 3 strings");
        EntryFields nullValue = EntryFields.decodedOnFirstUse(() -> new String[] {"a", null});
        assertThatThrownBy(nullValue::size).isInstanceOf(NullPointerException.class).hasMessageContaining("value of entry field 0");
    }
}
