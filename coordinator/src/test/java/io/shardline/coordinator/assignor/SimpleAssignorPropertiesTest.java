package io.shardline.coordinator.assignor;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.StreamDescription;
import io.shardline.coordinator.assignor.testing.AssignmentChecks;
import io.shardline.coordinator.assignor.testing.AssignmentProblem;
import io.shardline.coordinator.assignor.testing.ProblemShape;
import io.shardline.coordinator.assignor.testing.RandomProblems;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Properties of {@code range} and {@code round-robin} on generated problems (jqwik shrinks the seeds): valid,
 * deterministic whatever the order of the input members, and balanced where Kafka's algorithms promise it.
 */
class SimpleAssignorPropertiesTest {

    private static final ProblemShape SHAPE = ProblemShape.small().withUnknownStreamChance(0.05);

    @Property(tries = 400)
    void rangeIsValidAndIndependentOfMemberOrder(@ForAll long seed, @ForAll long shuffleSeed) {
        validAndOrderIndependent(new RangeAssignor(), seed, shuffleSeed);
    }

    @Property(tries = 400)
    void roundRobinIsValidAndIndependentOfMemberOrder(@ForAll long seed, @ForAll long shuffleSeed) {
        validAndOrderIndependent(new RoundRobinAssignor(), seed, shuffleSeed);
    }

    @Property(tries = 400)
    void rangeWithoutRacksGivesEachSubscriberOfAStreamFloorOrCeilOfItsShare(@ForAll long seed) {
        AssignmentProblem p = RandomProblems.generate(seed, SHAPE.withRackChance(0));
        GroupAssignment a = new RangeAssignor().assign(p.group(), p.shards());
        for (StreamDescription s : p.shards().streams().values()) {
            long subscribers = p.group().members().stream().filter(m -> m.subscriptions().contains(s.name())).count();
            if (subscribers == 0) {
                continue;
            }
            int floor = (int) (s.shardCount() / subscribers);
            for (MemberSubscription m : p.group().members()) {
                if (m.subscriptions().contains(s.name())) {
                    assertThat(a.member(m.memberId()).shardsOf(s.name()).size()).isBetween(floor, floor + 1);
                }
            }
        }
    }

    @Property(tries = 400)
    void roundRobinWithIdenticalSubscriptionsDiffersByAtMostOne(@ForAll long seed) {
        AssignmentProblem p = RandomProblems.generate(seed, ProblemShape.small().withIdenticalSubscriptionChance(1));
        GroupAssignment a = new RoundRobinAssignor().assign(p.group(), p.shards());
        assertThat(AssignmentChecks.spread(a)).isLessThanOrEqualTo(1);
    }

    private static void validAndOrderIndependent(Assignor assignor, long seed, long shuffleSeed) {
        AssignmentProblem p = RandomProblems.generate(seed, SHAPE);
        GroupAssignment a = assignor.assign(p.group(), p.shards());
        AssignmentChecks.assertValid(p, a);
        AssignmentProblem shuffled = p.shuffled(new SplittableRandom(shuffleSeed));
        assertThat(assignor.assign(shuffled.group(), shuffled.shards())).isEqualTo(a);
        assertThat(assignor.assign(p.group(), p.shards())).as("same input, same output").isEqualTo(a);
    }
}
