package io.shardline.api.assignor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class StreamShardMapTest {

    private static final ShardSet A = ShardSet.of(0, 1);
    private static final ShardSet B = ShardSet.of(2);
    private static final ShardSet C = ShardSet.of(3, 5);

    private static StreamShardMap abc() {
        return StreamShardMap.of(new String[] {"a", "b", "c"}, new ShardSet[] {A, B, C});
    }

    private static TreeMap<String, ShardSet> treeAbc() {
        return new TreeMap<>(Map.of("a", A, "b", B, "c", C));
    }

    @Test
    void equalsAndHashCodeAgreeWithTreeMapAndHashMap() {
        StreamShardMap map = abc();
        assertThat(map).isEqualTo(treeAbc());
        assertThat(treeAbc()).isEqualTo(map);
        assertThat(new HashMap<>(treeAbc())).isEqualTo(map);
        assertThat(map.hashCode()).isEqualTo(treeAbc().hashCode());
        assertThat(map).isEqualTo(abc());
        assertThat(map.toString()).isEqualTo(treeAbc().toString());

        TreeMap<String, ShardSet> other = treeAbc();
        other.put("c", B);
        assertThat(map).isNotEqualTo(other);
        assertThat(other).isNotEqualTo(map);
        HashMap<String, ShardSet> withNull = new HashMap<>(treeAbc());
        withNull.remove("c");
        withNull.put(null, C);
        assertThat(withNull).isNotEqualTo(map);
        assertThat(map).isNotEqualTo(withNull);
        assertThat(StreamShardMap.EMPTY).isEqualTo(Map.of()).hasSameHashCodeAs(Map.of());
    }

    @Test
    void iteratesInNaturalOrderAndLooksUpByName() {
        StreamShardMap map = abc();
        assertThat(map.keySet()).containsExactly("a", "b", "c");
        assertThat(map.values()).containsExactly(A, B, C);
        assertThat(map.entrySet()).containsExactly(Map.entry("a", A), Map.entry("b", B), Map.entry("c", C));
        assertThat(map.entrySet()).contains(Map.entry("b", B)).doesNotContain(Map.entry("b", A));
        assertThat(map.get("b")).isEqualTo(B);
        assertThat(map.get("bb")).isNull();
        assertThat(map.get(42)).isNull();
        assertThat(map.containsKey("c")).isTrue();
        assertThat(map.containsKey("d")).isFalse();
        assertThat(map.keySet().contains(null)).isFalse();
        assertThat(map.containsValue(C)).isTrue();
        assertThat(map.containsValue(ShardSet.of(9))).isFalse();
        assertThat(map.firstKey()).isEqualTo("a");
        assertThat(map.lastKey()).isEqualTo("c");
        assertThat(map.comparator()).isNull();
        assertThat(map.size()).isEqualTo(3);
        assertThatThrownBy(() -> map.get(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(StreamShardMap.EMPTY::firstKey).isInstanceOf(NoSuchElementException.class);
        assertThatThrownBy(StreamShardMap.EMPTY::lastKey).isInstanceOf(NoSuchElementException.class);
        var it = StreamShardMap.EMPTY.keySet().iterator();
        assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void viewsMatchTreeMapViews() {
        StreamShardMap map = abc();
        TreeMap<String, ShardSet> tree = treeAbc();
        for (String from : List.of("", "a", "aa", "b", "c", "d")) {
            assertThat(map.tailMap(from)).isEqualTo(tree.tailMap(from));
            assertThat(map.headMap(from)).isEqualTo(tree.headMap(from));
            for (String to : List.of("", "a", "aa", "b", "c", "d")) {
                if (from.compareTo(to) <= 0) {
                    assertThat(map.subMap(from, to)).isEqualTo(tree.subMap(from, to));
                    assertThat(map.subMap(from, to).keySet()).containsExactlyElementsOf(tree.subMap(from, to).keySet());
                }
            }
        }
        SortedMap<String, ShardSet> sub = map.subMap("aa", "c");
        assertThat(sub.firstKey()).isEqualTo("b");
        assertThat(sub.lastKey()).isEqualTo("b");
        assertThat(sub.get("a")).isNull();
        assertThat(sub.get("c")).isNull();
        assertThat(sub.hashCode()).isEqualTo(tree.subMap("aa", "c").hashCode());
        assertThat(sub.headMap("c")).isEqualTo(Map.of("b", B));
        assertThat(sub.tailMap("aa")).isEqualTo(Map.of("b", B));
        assertThat(map.subMap("b", "b")).isEmpty();
    }

    @Test
    void viewsRejectKeysOutsideTheirRangeAsTreeMapDoes() {
        SortedMap<String, ShardSet> sub = abc().subMap("b", "c");
        SortedMap<String, ShardSet> treeSub = treeAbc().subMap("b", "c");
        assertThatThrownBy(() -> treeSub.headMap("d")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sub.headMap("d")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'d'").hasMessageContaining("[b, c)");
        assertThatThrownBy(() -> sub.tailMap("a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sub.subMap("a", "c")).isInstanceOf(IllegalArgumentException.class);
        assertThat(sub.subMap("b", "c")).isEqualTo(treeSub.subMap("b", "c"));
        assertThatThrownBy(() -> abc().subMap("c", "a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'c' is after toKey 'a'");
        assertThatThrownBy(() -> abc().tailMap(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void everyMutatorThrows() {
        StreamShardMap map = abc();
        List<Runnable> mutations = List.of(
                () -> map.put("d", A),
                () -> map.remove("a"),
                () -> map.remove("a", A),
                () -> map.putAll(Map.of("d", A)),
                () -> map.clear(),
                () -> StreamShardMap.EMPTY.clear(),
                () -> map.putIfAbsent("d", A),
                () -> map.replace("a", B),
                () -> map.replace("a", A, B),
                () -> map.replaceAll((k, v) -> v),
                () -> map.computeIfAbsent("d", k -> A),
                () -> map.computeIfPresent("a", (k, v) -> v),
                () -> map.compute("a", (k, v) -> v),
                () -> map.merge("a", A, (x, y) -> x),
                () -> map.keySet().remove("a"),
                () -> map.values().remove(A),
                () -> map.entrySet().iterator().next().setValue(B),
                () -> map.subMap("a", "c").put("b", A));
        for (Runnable mutation : mutations) {
            assertThatThrownBy(mutation::run).isInstanceOf(UnsupportedOperationException.class);
        }
        assertThat(map).isEqualTo(treeAbc());
    }

    @Test
    void dropsNullAndEmptySets() {
        StreamShardMap map = StreamShardMap.of(new String[] {"a", "b", "c", "d"},
                new ShardSet[] {ShardSet.EMPTY, B, null, C});
        assertThat(map).isEqualTo(Map.of("b", B, "d", C));
        assertThat(StreamShardMap.of(new String[] {"a"}, new ShardSet[] {ShardSet.EMPTY})).isSameAs(StreamShardMap.EMPTY);

        SortedStreams streams = SortedStreams.of("a", "b", "c");
        assertThat(StreamShardMap.of(streams, new ShardSet[] {A, null, C})).isEqualTo(Map.of("a", A, "c", C));
        assertThat(StreamShardMap.of(streams, new int[] {0, 2}, new ShardSet[] {ShardSet.EMPTY, C}))
                .isEqualTo(Map.of("c", C));
        assertThat(StreamShardMap.of(streams, new int[] {1, 2}, new ShardSet[] {B, C}))
                .isEqualTo(Map.of("b", B, "c", C));
        assertThat(StreamShardMap.of(streams, new int[] {0, 1, 2}, new ShardSet[] {A, B, C})).isEqualTo(abc());
        assertThat(StreamShardMap.of(streams, new int[0], new ShardSet[0])).isSameAs(StreamShardMap.EMPTY);
    }

    @Test
    void rejectsBadInputNamingTheReason() {
        assertThatThrownBy(() -> StreamShardMap.of(new String[] {"b", "a"}, new ShardSet[] {A, B}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stream names must be distinct and ascending: 'b' (position 0) is not before 'a' (position 1)");
        assertThatThrownBy(() -> StreamShardMap.of(new String[] {"a", "a"}, new ShardSet[] {A, B}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distinct and ascending");
        assertThatThrownBy(() -> StreamShardMap.of(new String[] {"a", null}, new ShardSet[] {A, B}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("stream name at position 1 is null");
        assertThatThrownBy(() -> StreamShardMap.of(new String[] {"a"}, new ShardSet[] {A, B}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("got 1 stream names but 2 shard sets");
        SortedStreams streams = SortedStreams.of("a", "b", "c");
        assertThatThrownBy(() -> StreamShardMap.of(streams, new ShardSet[] {A}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("got 3 stream names but 1 shard sets");
        assertThatThrownBy(() -> StreamShardMap.of(streams, new int[] {2, 1}, new ShardSet[] {A, B}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stream indices must ascend: 2 (position 0) is not below 1 (position 1)");
        assertThatThrownBy(() -> StreamShardMap.of(streams, new int[] {0, 3}, new ShardSet[] {A, B}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stream index 3 at position 1 is outside 0..2");
        assertThatThrownBy(() -> SortedStreams.of("x", "w"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'x' (position 0)");
    }

    @Test
    void membersWithAllStreamsShareTheKeyArray() {
        SortedStreams streams = SortedStreams.of("a", "b");
        StreamShardMap one = StreamShardMap.of(streams, new int[] {0, 1}, new ShardSet[] {A, B});
        StreamShardMap two = StreamShardMap.of(streams, new int[] {0, 1}, new ShardSet[] {B, C});
        assertThat(one.firstKey()).isSameAs(two.firstKey()).isSameAs(streams.get(0));
        assertThat(one).isEqualTo(Map.of("a", A, "b", B));
        assertThat(two).isEqualTo(Map.of("a", B, "b", C));
    }

    @Test
    void copyOfKeepsItselfAndCopiesOtherMapsInNaturalOrder() {
        StreamShardMap map = abc();
        assertThat(StreamShardMap.copyOf(map)).isSameAs(map);
        assertThat(StreamShardMap.copyOf(treeAbc())).isEqualTo(map);
        assertThat(StreamShardMap.copyOf(Map.of("c", C, "a", A, "b", B, "d", ShardSet.EMPTY)).keySet())
                .containsExactly("a", "b", "c");
        TreeMap<String, ShardSet> reversed = new TreeMap<>(java.util.Comparator.reverseOrder());
        reversed.putAll(treeAbc());
        assertThat(StreamShardMap.copyOf(reversed).keySet()).containsExactly("a", "b", "c");
        HashMap<String, ShardSet> nullSet = new HashMap<>();
        nullSet.put("a", null);
        assertThatThrownBy(() -> StreamShardMap.copyOf(nullSet)).isInstanceOf(NullPointerException.class)
                .hasMessage("shard set of stream 'a' is null");
        MemberSubscription m = MemberSubscription.of("m", List.of("a")).withOwned(map, 3);
        assertThat(m.owned()).isSameAs(map);
        assertThat(MemberSubscription.of("m", List.of("a")).withOwned(treeAbc(), 3).owned()).isEqualTo(map);
    }
}
