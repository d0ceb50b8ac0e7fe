package io.shardline.api.assignor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class StreamNameSetTest {

    private static TreeSet<String> tree() {
        return new TreeSet<>(List.of("a", "b", "c"));
    }

    @Test
    void sortsDropsDuplicatesAndEqualsAnySetWithTheSameNames() {
        StreamNameSet set = StreamNameSet.of("c", "a", "b", "a");
        assertThat(set).containsExactly("a", "b", "c");
        assertThat(set).isEqualTo(tree()).hasSameHashCodeAs(tree());
        assertThat(tree()).isEqualTo(set);
        assertThat(new HashSet<>(tree())).isEqualTo(set);
        assertThat(set).isEqualTo(StreamNameSet.copyOf(tree()));
        assertThat(set).isNotEqualTo(StreamNameSet.of("a", "b", "d")).isNotEqualTo(Set.of("a", "b"));
        HashSet<String> withNull = new HashSet<>(List.of("a", "b"));
        withNull.add(null);
        assertThat(set).isNotEqualTo(withNull);
        assertThat(withNull).isNotEqualTo(set);
        assertThat(set.toString()).isEqualTo("[a, b, c]");
        assertThat(set.comparator()).isNull();
        assertThat(StreamNameSet.copyOf(List.of())).isSameAs(StreamNameSet.EMPTY);
        TreeSet<String> reversed = new TreeSet<>(Comparator.reverseOrder());
        reversed.addAll(tree());
        assertThat(StreamNameSet.copyOf(reversed)).containsExactly("a", "b", "c");
    }

    @Test
    void keepsItselfAndComparesArraysDirectly() {
        StreamNameSet set = StreamNameSet.of("a", "b");
        assertThat(StreamNameSet.copyOf(set)).isSameAs(set);
        assertThat(set.sameNames(StreamNameSet.of("b", "a"))).isTrue();
        assertThat(set.sameNames(StreamNameSet.of("a", "c"))).isFalse();
        assertThat(set.sameNames(StreamNameSet.of("a"))).isFalse();
        MemberSubscription one = MemberSubscription.of("m1", set);
        assertThat(one.subscriptions()).isSameAs(set);
        assertThat(MemberSubscription.of("m2", List.of("b", "a")).subscriptions()).isEqualTo(set);
    }

    @Test
    void looksUpAndViewsAsTreeSet() {
        StreamNameSet set = StreamNameSet.of("a", "b", "c");
        TreeSet<String> tree = tree();
        assertThat(set.contains("b")).isTrue();
        assertThat(set.contains("bb")).isFalse();
        assertThat(set.contains(3)).isFalse();
        assertThatThrownBy(() -> set.contains(null)).isInstanceOf(NullPointerException.class);
        assertThat(set.first()).isEqualTo("a");
        assertThat(set.last()).isEqualTo("c");
        assertThat(set.get(1)).isEqualTo("b");
        assertThat(Arrays.asList(set.toArray())).containsExactly("a", "b", "c");
        assertThat(set.toArray(new String[0])).containsExactly("a", "b", "c");
        for (String from : List.of("", "a", "aa", "b", "c", "d")) {
            assertThat(set.headSet(from)).isEqualTo(tree.headSet(from));
            assertThat(set.tailSet(from)).containsExactlyElementsOf(tree.tailSet(from));
            for (String to : List.of("", "a", "aa", "b", "c", "d")) {
                if (from.compareTo(to) <= 0) {
                    assertThat(set.subSet(from, to)).containsExactlyElementsOf(tree.subSet(from, to));
                }
            }
        }
        SortedSet<String> sub = set.subSet("b", "c");
        assertThat(sub).containsExactly("b");
        assertThat(sub.contains("c")).isFalse();
        assertThatThrownBy(() -> sub.headSet("d")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'d' is outside this set's range [b, c)");
        assertThatThrownBy(() -> sub.tailSet("a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> set.subSet("c", "a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'c' is after toElement 'a'");
        assertThatThrownBy(StreamNameSet.EMPTY::first).isInstanceOf(NoSuchElementException.class);
        assertThatThrownBy(StreamNameSet.EMPTY::last).isInstanceOf(NoSuchElementException.class);
        assertThatThrownBy(() -> set.get(3)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void everyMutatorThrowsAndNullsAreRejected() {
        StreamNameSet set = StreamNameSet.of("a", "b");
        List<Runnable> mutations = List.of(
                () -> set.add("c"), () -> set.remove("a"), () -> set.addAll(List.of("c")),
                () -> set.removeAll(List.of("a")), () -> set.retainAll(List.of("a")), () -> set.removeIf(s -> false),
                () -> set.clear(), () -> set.iterator().remove(), () -> set.headSet("b").add("a"));
        for (Runnable mutation : mutations) {
            assertThatThrownBy(mutation::run).isInstanceOf(UnsupportedOperationException.class);
        }
        assertThat(set).containsExactly("a", "b");
        assertThatThrownBy(() -> StreamNameSet.copyOf(Arrays.asList("a", null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("stream name at position 1 is null");
    }
}
