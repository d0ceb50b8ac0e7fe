package io.shardline.coordinator.assignor;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.ShardDescriber;

/**
 * Our {@code sticky} and {@code cooperative-sticky} answers to one problem from one sticky computation: the
 * cooperative answer is the sticky one with its transfers withheld ({@link CooperativeStickyAssignor#fromSticky}).
 * The differential and parity tests need both answers to every problem, and the sticky computation (its last pass,
 * {@link FirstRoundCounts}, above all) is most of their time; computing it once instead of twice keeps every check
 * on every problem. A fixed sample of problems (every {@value #CROSS_CHECK_EVERY}th seed) is also answered through
 * the assignors' public entry points, which must give the same.
 */
record StickyAnswers(GroupAssignment sticky, GroupAssignment cooperative) {

    /** Seeds divisible by this are answered through the public entry points too. */
    static final int CROSS_CHECK_EVERY = 50;
    /** Seeds divisible by this build their histories with the whole sticky computation. */
    static final int FULL_HISTORY_EVERY = 4;

    /**
     * An answer for an earlier round of a group's history ({@code RandomRounds}): ours, {@code cooperative-sticky} or
     * {@code sticky}, with the sticky computation's last pass ({@link FirstRoundCounts}) only for every
     * {@value #FULL_HISTORY_EVERY}th seed, a fixed sample. Without the pass a round is as balanced and moves as few
     * shards; the pass is most of a history's time, and the problem the history leads to is answered in full.
     */
    static GroupAssignment historyRound(long seed, GroupSpec group, ShardDescriber shards, boolean cooperative) {
        StickyInput in = StickyInput.of(group, shards);
        int[] assignee = StickyAssignor.assign(in, Math.floorMod(seed, FULL_HISTORY_EVERY) == 0);
        return cooperative ? CooperativeStickyAssignor.fromSticky(in, assignee)
                : StickyResult.toGroupAssignment(in, assignee);
    }

    /** Both answers to the problem of {@code seed}. */
    static StickyAnswers of(long seed, GroupSpec group, ShardDescriber shards) {
        StickyInput in = StickyInput.of(group, shards);
        int[] assignee = StickyAssignor.assign(in);
        GroupAssignment sticky = StickyResult.toGroupAssignment(in, assignee);
        StickyAnswers answers = new StickyAnswers(sticky, CooperativeStickyAssignor.fromSticky(in, assignee));
        if (Math.floorMod(seed, CROSS_CHECK_EVERY) == 0) {
            assertThat(new StickyAssignor().assign(group, shards)).as("sticky, seed %d", seed).isEqualTo(sticky);
            assertThat(new CooperativeStickyAssignor().assign(group, shards)).as("cooperative-sticky, seed %d", seed)
                    .isEqualTo(answers.cooperative());
        }
        return answers;
    }
}
