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
