package io.shardline.api.assignor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class MemberAssignmentTest {

    @Test
    void copiesInNaturalOrderAndDropsEmptySets() {
        TreeMap<String, ShardSet> input = new TreeMap<>();
        input.put("b", ShardSet.of(2));
        input.put("a", ShardSet.EMPTY);
        input.put("c", ShardSet.of(0, 1));
        MemberAssignment m = new MemberAssignment(input);
        input.put("d", ShardSet.of(5));
        assertThat(m.shards()).containsOnlyKeys("b", "c");
        assertThat(m.size()).isEqualTo(3);
        assertThat(m.shardsOf("a")).isEqualTo(ShardSet.EMPTY);
    }

    @Test
    void mapsWithAnotherOrderAreResortedByStreamName() {
        TreeMap<String, ShardSet> reversed = new TreeMap<>(Comparator.reverseOrder());
        reversed.put("a", ShardSet.of(1));
        reversed.put("b", ShardSet.EMPTY);
        reversed.put("c", ShardSet.of(3));
        MemberAssignment m = new MemberAssignment(reversed);
        assertThat(m.shards().keySet()).containsExactly("a", "c");
        assertThat(m.shards().comparator()).isNull();
    }

    @Test
    void keepsAStreamShardMapWithoutCopying() {
        StreamShardMap map = StreamShardMap.of(new String[] {"a", "b"}, new ShardSet[] {ShardSet.of(1), ShardSet.of(2, 3)});
        MemberAssignment m = new MemberAssignment(map);
        assertThat(m.shards()).isSameAs(map);
        assertThat(m.size()).isEqualTo(3);
        assertThat(m.shardsOf("b")).isEqualTo(ShardSet.of(2, 3));
        assertThat(m.shardsOf("c")).isEqualTo(ShardSet.EMPTY);
        assertThat(m).isEqualTo(MemberAssignment.of(Map.of("a", ShardSet.of(1), "b", ShardSet.of(2, 3))));
        assertThat(m.hashCode()).isEqualTo(MemberAssignment.of(Map.of("a", ShardSet.of(1), "b", ShardSet.of(2, 3))).hashCode());
    }

    @Test
    void sortedFactoriesDropEmptySetsAndCheckOrder() {
        assertThat(MemberAssignment.ofSorted(new String[] {"a", "b"}, new ShardSet[] {ShardSet.EMPTY, ShardSet.of(4)})
                .shards()).containsOnlyKeys("b");
        SortedStreams streams = SortedStreams.of("a", "b", "c");
        assertThat(MemberAssignment.ofSorted(streams, new ShardSet[] {null, ShardSet.of(1), ShardSet.EMPTY}))
                .isEqualTo(MemberAssignment.of(Map.of("b", ShardSet.of(1))));
        assertThat(MemberAssignment.ofSorted(streams, new int[] {2}, new ShardSet[] {ShardSet.of(7)}).shardsOf("c"))
                .isEqualTo(ShardSet.of(7));
        assertThat(MemberAssignment.ofSorted(streams, new ShardSet[3])).isEqualTo(MemberAssignment.EMPTY);
        assertThatThrownBy(() -> MemberAssignment.ofSorted(new String[] {"b", "a"}, new ShardSet[2]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'b' (position 0) is not before 'a'");
    }
}
