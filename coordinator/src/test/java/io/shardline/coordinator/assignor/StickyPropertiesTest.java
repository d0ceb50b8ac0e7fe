package io.shardline.coordinator.assignor;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.coordinator.assignor.testing.AssignmentChecks;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import io.shardline.coordinator.assignor.testing.ProblemShape;
import io.shardline.coordinator.assignor.testing.RandomProblems;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** Properties of {@code sticky} and {@code cooperative-sticky} over seeded random problems. */
class StickyPropertiesTest {

    private static AssignmentProblem problem(long seed) {
        return RandomProblems.generate(seed, Math.floorMod(seed, 4) == 0 ? ProblemShape.medium() : ProblemShape.small());
    }

    @Property(tries = 300)
    void sameAnswerWhateverTheMemberOrder(@ForAll long seed, @ForAll long shuffle) {
        AssignmentProblem p = problem(seed);
        AssignmentProblem shuffled = p.shuffled(new SplittableRandom(shuffle));
        StickyAnswers ours = StickyAnswers.of(seed, p.group(), p.shards());
        StickyAnswers reordered = StickyAnswers.of(seed, shuffled.group(), shuffled.shards());
        assertThat(reordered.sticky()).isEqualTo(ours.sticky());
        assertThat(reordered.cooperative()).isEqualTo(ours.cooperative());
    }

    @Property(tries = 300)
    void identicalSubscriptionsDifferByAtMostOne(@ForAll long seed) {
        AssignmentProblem p = RandomProblems.generate(seed, ProblemShape.small().withIdenticalSubscriptionChance(1.0));
        GroupAssignment a = new StickyAssignor().assign(p.group(), p.shards());
        AssignmentChecks.assertValid(p, a);
        assertThat(AssignmentChecks.spread(a)).as("%s", p).isLessThanOrEqualTo(1);
    }

    /**
     * Round 1: cooperative-sticky on the problem; members apply it (they own what they got, revoke the rest,
     * next generation). Round 2: cooperative-sticky withholds nothing, so its answer is the sticky answer.
     */
    @Property(tries = 300)
    void cooperativeReachesTheStickyResultWithinTwoRounds(@ForAll long seed) {
        AssignmentProblem p = problem(seed);
        GroupAssignment first = new CooperativeStickyAssignor().assign(p.group(), p.shards());
        GroupSpec applied = applied(p.group(), first);
        GroupAssignment second = new CooperativeStickyAssignor().assign(applied, p.shards());
        assertThat(second).as("%s", p).isEqualTo(new StickyAssignor().assign(applied, p.shards()));
        AssignmentChecks.assertValid(new AssignmentProblem(p.seed(), applied, p.shards()), second);
    }

    /** The group after its members applied {@code assignment} in the next generation. */
    static GroupSpec applied(GroupSpec group, GroupAssignment assignment) {
        int generation = group.members().stream().mapToInt(MemberSubscription::generation).max().orElse(0) + 1;
        List<MemberSubscription> next = new ArrayList<>();
        for (MemberSubscription m : group.members()) {
            next.add(m.withOwned(assignment.member(m.memberId()).shards(), generation));
        }
        return new GroupSpec(next);
    }
}
