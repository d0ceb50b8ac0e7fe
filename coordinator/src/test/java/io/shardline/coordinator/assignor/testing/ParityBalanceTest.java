package io.shardline.coordinator.assignor.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import io.shardline.coordinator.assignor.StickyAssignor;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The measures of the parity rule on hand-made assignments, and the incremental rounds' determinism. */
class ParityBalanceTest {

    private static final ShardDescriber STREAMS = new ShardDescriber(new TreeMap<>(Map.of(
            "a", StreamDescription.of("a", 4), "b", StreamDescription.of("b", 2))));
    private static final GroupSpec GROUP = new GroupSpec(List.of(
            MemberSubscription.of("x", List.of("a", "b")),
            MemberSubscription.of("y", List.of("a", "b")),
            MemberSubscription.of("z", List.of("b"))));

    private static GroupAssignment assignment(String x, String y, String z) {
        return GroupAssignment.of(Map.of("x", member(x), "y", member(y), "z", member(z)));
    }

    /** {@code "a:0,1 b:0"}. */
    private static MemberAssignment member(String shards) {
        TreeMap<String, ShardSet> sets = new TreeMap<>();
        for (String part : shards.isBlank() ? new String[0] : shards.split(" ")) {
            String[] kv = part.split(":");
            int[] shardNumbers = java.util.Arrays.stream(kv[1].split(",")).mapToInt(Integer::parseInt).toArray();
            sets.put(kv[0], ShardSet.of(shardNumbers));
        }
        return MemberAssignment.of(sets);
    }

    @Test
    void anEvenAssignmentHasNoUnevenStreamAndSpreadsOfAtMostOne() {
        ParityBalance even = ParityBalance.of(GROUP, STREAMS, assignment("a:0,1", "a:2,3", "b:0,1"));
        assertThat(even.classSpreads()).isEqualTo(Map.of("a b", 0, "b", 0));
        assertThat(even.unevenStreams()).isEmpty();
        assertThat(even.worseThan(even)).isEmpty();
        assertThat(even.betterThan(even)).isFalse();
    }

    @Test
    void aShardThatCouldMoveToASubscriberWithTwoFewerMakesItsStreamUneven() {
        // x holds 3 (a and b), z subscribes to b and holds 0: a b shard could move; a's subscribers x and y differ by 2
        ParityBalance uneven = ParityBalance.of(GROUP, STREAMS, assignment("a:0,1 b:0", "a:2,3 b:1", ""));
        ParityBalance even = ParityBalance.of(GROUP, STREAMS, assignment("a:0,1", "a:2,3", "b:0,1"));
        assertThat(uneven.unevenStreams()).containsExactly("b");
        assertThat(uneven.worseThan(even)).hasSize(1).first().asString().contains("[b]");
        assertThat(even.worseThan(uneven)).isEmpty();
        assertThat(even.betterThan(uneven)).isTrue();
        assertThat(uneven.betterThan(even)).isFalse();
    }

    @Test
    void aClassSpreadOfOneIsEvenButTwoIsWorse() {
        ParityBalance one = ParityBalance.of(GROUP, STREAMS, assignment("a:0,1,2", "a:3 b:0", "b:1"));
        ParityBalance two = ParityBalance.of(GROUP, STREAMS, assignment("a:0,1,2 b:0", "a:3", "b:1"));
        ParityBalance zero = ParityBalance.of(GROUP, STREAMS, assignment("a:0,1", "a:2,3", "b:0,1"));
        assertThat(one.worseThan(zero)).isEmpty();
        assertThat(one.betterThan(zero)).as("1 against 0 is not better: the moves decide").isFalse();
        assertThat(zero.betterThan(one)).as("0 against 1: even either way, the lower score breaks the tie").isTrue();
        assertThat(two.worseThan(zero)).anySatisfy(w -> assertThat(w).contains("[a b] differ by 3"));
    }

    @Test
    void aStreamNobodyHoldsIsEven() {
        // a first cooperative round that withholds both b shards: nobody holds b, so no b shard could move
        ParityBalance withheld = ParityBalance.of(GROUP, STREAMS, assignment("a:0,1", "a:2,3", ""));
        assertThat(withheld.unevenStreams()).isEmpty();
    }

    @Test
    void incrementalRoundsAreDeterministicPerSeed() {
        for (long seed = 0; seed < 20; seed++) {
            AssignmentProblem first = RandomRounds.generate(seed, ProblemShape.small(), 3,
                    (g, s) -> new StickyAssignor().assign(g, s));
            assertThat(RandomRounds.generate(seed, ProblemShape.small(), 3,
                    (g, s) -> new StickyAssignor().assign(g, s)))
                    .isEqualTo(first);
        }
    }
}
