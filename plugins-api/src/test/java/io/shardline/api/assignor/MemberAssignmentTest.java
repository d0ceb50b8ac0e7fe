package io.shardline.api.assignor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
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
}
