package io.shardline.api.assignor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShardSetTest {

    @Test
    void sortsAndDeduplicates() {
        ShardSet set = ShardSet.of(5, 1, 3, 1, 5);
        assertThat(set.toArray()).containsExactly(1, 3, 5);
        assertThat(set.size()).isEqualTo(3);
        assertThat(set.contains(3)).isTrue();
        assertThat(set.contains(2)).isFalse();
        assertThat(set.max()).isEqualTo(5);
        assertThat(set).isEqualTo(ShardSet.of(List.of(3, 5, 1)));
    }

    @Test
    void rejectsNegativeShards() {
        assertThatThrownBy(() -> ShardSet.of(2, -1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> ShardSet.range(-3)).hasMessageContaining("-3");
    }

    @Test
    void isImmutable() {
        int[] source = {2, 1};
        ShardSet set = ShardSet.of(source);
        source[0] = 9;
        set.toArray()[0] = 9;
        assertThat(set.toArray()).containsExactly(1, 2);
    }

    @Test
    void memberAssignmentDropsEmptyStreams() {
        MemberAssignment a = MemberAssignment.of(java.util.Map.of("a", ShardSet.EMPTY, "b", ShardSet.of(0)));
        assertThat(a.shards()).containsOnlyKeys("b");
        assertThat(a.size()).isEqualTo(1);
    }

    @Test
    void groupSpecRejectsDuplicateMemberIds() {
        assertThatThrownBy(() -> GroupSpec.of(MemberSubscription.of("A", List.of("s")), MemberSubscription.of("A", List.of("s"))))
                .hasMessageContaining("duplicate member id 'A'");
    }
}
