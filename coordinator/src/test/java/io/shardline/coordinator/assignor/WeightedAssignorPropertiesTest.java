package io.shardline.coordinator.assignor;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Weighted members ({@code member.weight}) over seeded random groups with identical subscriptions: every member's
 * share is within one shard of proportional to its weight (sticky, cooperative-sticky once converged, round-robin);
 * when one weight changes, sticky moves no more shards than the new shares force; with equal weights nothing
 * changes (the unweighted algorithms, checked against Kafka elsewhere, run as they are).
 */
class WeightedAssignorPropertiesTest {

    private static final List<String> STREAMS = List.of("a", "b", "c");

    /** A random group: 1-8 members of weight 1-5 reading every stream, 0-60 shards per stream. */
    private record Problem(List<MemberSubscription> members, ShardDescriber shards, int total) {
    }

    private static Problem problem(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int memberCount = 1 + r.nextInt(8);
        List<MemberSubscription> members = new ArrayList<>();
        for (int i = 0; i < memberCount; i++) {
            members.add(MemberSubscription.of("m" + i, STREAMS).withWeight(1 + r.nextInt(5)));
        }
        TreeMap<String, StreamDescription> streams = new TreeMap<>();
        int total = 0;
        for (String s : STREAMS) {
            int n = r.nextInt(61);
            total += n;
            streams.put(s, StreamDescription.of(s, n));
        }
        return new Problem(members, new ShardDescriber(streams), total);
    }

    private static void assertProportional(Problem p, GroupAssignment a) {
        long weights = p.members().stream().mapToLong(MemberSubscription::weight).sum();
        int given = 0;
        for (MemberSubscription m : p.members()) {
            int count = count(a.member(m.memberId()));
            given += count;
            double exact = (double) p.total() * m.weight() / weights;
            assertThat((double) count).as("member %s of weight %s in %s: %s", m.memberId(), m.weight(), p, a)
                    .isBetween(Math.floor(exact), Math.ceil(exact));
        }
        assertThat(given).as("every shard given once").isEqualTo(p.total());
    }

    private static int count(MemberAssignment a) {
        return a.shards().values().stream().mapToInt(ShardSet::size).sum();
    }

    @Property(tries = 300)
    void stickyAndRoundRobinSharesAreProportionalWithinOneShard(@ForAll long seed) {
        Problem p = problem(seed);
        GroupSpec group = new GroupSpec(p.members());
        assertProportional(p, new StickyAssignor().assign(group, p.shards()));
        assertProportional(p, new RoundRobinAssignor().assign(group, p.shards()));
    }

    @Property(tries = 200)
    void cooperativeStickyConvergesToTheProportionalStickyAnswer(@ForAll long seed) {
        Problem p = problem(seed);
        List<MemberSubscription> owning = owning(p.members(), new StickyAssignor().assign(new GroupSpec(p.members()),
                p.shards()), 1);
        // One member's weight changes: round 1 withholds moving shards, round 2 (from its own output) gives them.
        List<MemberSubscription> changed = new ArrayList<>(owning);
        changed.set(0, changed.get(0).withWeight(changed.get(0).weight() % 5 + 1));
        GroupAssignment round1 = new CooperativeStickyAssignor().assign(new GroupSpec(changed), p.shards());
        GroupAssignment round2 = new CooperativeStickyAssignor().assign(new GroupSpec(owning(changed, round1, 2)),
                p.shards());
        Problem after = new Problem(changed, p.shards(), p.total());
        assertProportional(after, round2);
    }

    @Property(tries = 300)
    void aWeightChangeMovesNoMoreShardsThanTheNewSharesForce(@ForAll long seed, @ForAll @IntRange(min = 1, max = 5) int w) {
        Problem p = problem(seed);
        GroupAssignment before = new StickyAssignor().assign(new GroupSpec(p.members()), p.shards());
        List<MemberSubscription> changed = new ArrayList<>(owning(p.members(), before, 1));
        changed.set(0, changed.get(0).withWeight(w));
        GroupAssignment after = new StickyAssignor().assign(new GroupSpec(changed), p.shards());
        assertProportional(new Problem(changed, p.shards(), p.total()), after);
        int moves = 0;
        int forced = 0;
        for (MemberSubscription m : changed) {
            int kept = 0;
            for (Map.Entry<String, ShardSet> e : before.member(m.memberId()).shards().entrySet()) {
                ShardSet now = after.member(m.memberId()).shards().getOrDefault(e.getKey(), ShardSet.of());
                for (int i = 0; i < e.getValue().size(); i++) {
                    kept += now.contains(e.getValue().get(i)) ? 1 : 0;
                }
            }
            int had = count(before.member(m.memberId()));
            moves += had - kept;
            forced += Math.max(0, had - count(after.member(m.memberId())));
        }
        assertThat(moves).as("moves after a weight change").isEqualTo(forced);
    }

    @Property(tries = 200)
    void equalWeightsGiveTheUnweightedAnswer(@ForAll long seed, @ForAll @IntRange(min = 1, max = 5) int w) {
        Problem p = problem(seed);
        List<MemberSubscription> plain = new ArrayList<>();
        List<MemberSubscription> heavy = new ArrayList<>();
        for (MemberSubscription m : p.members()) {
            plain.add(m.withWeight(1));
            heavy.add(m.withWeight(w));
        }
        for (Assignor a : List.of(new StickyAssignor(), new CooperativeStickyAssignor(), new RoundRobinAssignor(),
                new RangeAssignor())) {
            assertThat(a.assign(new GroupSpec(heavy), p.shards())).as(a.name())
                    .isEqualTo(a.assign(new GroupSpec(plain), p.shards()));
        }
    }

    /** {@code members} owning what {@code a} gave them, since {@code generation}. */
    private static List<MemberSubscription> owning(List<MemberSubscription> members, GroupAssignment a, int generation) {
        List<MemberSubscription> out = new ArrayList<>();
        for (MemberSubscription m : members) {
            out.add(m.withOwned(new HashMap<>(a.member(m.memberId()).shards()), generation));
        }
        return out;
    }
}
