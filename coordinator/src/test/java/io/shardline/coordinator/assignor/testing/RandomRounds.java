package io.shardline.coordinator.assignor.testing;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.StreamDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * Seeded incremental rounds: a random problem ({@link RandomProblems}), then a few rounds in which the members
 * own what an assignor gave them in the previous round (next generation) and the group changes: members leave,
 * members join (with a subscription of an existing member or a new one), a member changes its subscription, a
 * stream gains shards. The last round's problem is returned, so that a differential test compares assignors on
 * the state a real group reaches after several rebalances. Every problem comes from one seed.
 */
public final class RandomRounds {

    private RandomRounds() {
    }

    /**
     * The problem of {@code seed} after 1 to {@code maxRounds} rounds, each applying {@code assignor}'s answer
     * (given the group and the streams) and then changing the group at random.
     */
    public static AssignmentProblem generate(long seed, ProblemShape shape, int maxRounds,
            BiFunction<GroupSpec, ShardDescriber, GroupAssignment> assignor) {
        SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
        AssignmentProblem p = RandomProblems.generate(seed, shape);
        int rounds = 1 + rnd.nextInt(maxRounds);
        for (int r = 0; r < rounds && !p.group().members().isEmpty(); r++) {
            GroupAssignment a = assignor.apply(p.group(), p.shards());
            p = changed(rnd, applied(p.group(), a), p.shards(), p.seed(), r);
        }
        return p;
    }

    /** The group after its members applied {@code assignment} in the next generation (as in a real group). */
    public static GroupSpec applied(GroupSpec group, GroupAssignment assignment) {
        int generation = group.members().stream().mapToInt(MemberSubscription::generation).max().orElse(0) + 1;
        List<MemberSubscription> next = new ArrayList<>();
        for (MemberSubscription m : group.members()) {
            next.add(m.withOwned(assignment.member(m.memberId()).shards(), generation));
        }
        return new GroupSpec(next);
    }

    private static AssignmentProblem changed(SplittableRandom rnd, GroupSpec group, ShardDescriber shards, long seed,
            int round) {
        List<MemberSubscription> members = new ArrayList<>(group.members());
        List<String> streams = new ArrayList<>(shards.streams().keySet());
        int leaving = members.size() > 1 ? rnd.nextInt(Math.min(4, members.size())) : 0;
        for (int i = 0; i < leaving; i++) {
            members.remove(rnd.nextInt(members.size()));
        }
        int joining = rnd.nextInt(4);
        for (int i = 0; i < joining; i++) {
            Set<String> subscription = members.isEmpty() || rnd.nextInt(3) == 0 ? subscription(rnd, streams)
                    : members.get(rnd.nextInt(members.size())).subscriptions();
            members.add(MemberSubscription.of("j" + round + "-" + i + "-" + Integer.toString(rnd.nextInt(1 << 16), 36),
                    subscription));
        }
        if (!members.isEmpty() && rnd.nextInt(4) == 0) {
            int i = rnd.nextInt(members.size());
            MemberSubscription m = members.get(i);
            members.set(i, MemberSubscription.of(m.memberId(), subscription(rnd, streams))
                    .withOwned(m.owned(), m.generation()));
        }
        TreeMap<String, StreamDescription> next = new TreeMap<>(shards.streams());
        if (rnd.nextInt(5) == 0) {
            StreamDescription s = next.get(streams.get(rnd.nextInt(streams.size())));
            int added = 1 + rnd.nextInt(8);
            List<Set<String>> racks = new ArrayList<>(s.racks());
            for (int i = 0; !racks.isEmpty() && i < added; i++) {
                racks.add(racks.get(rnd.nextInt(racks.size())));
            }
            next.put(s.name(), new StreamDescription(s.name(), s.shardCount() + added, racks));
        }
        return new AssignmentProblem(seed, new GroupSpec(members), new ShardDescriber(next));
    }

    private static Set<String> subscription(SplittableRandom rnd, List<String> streams) {
        Set<String> s = new TreeSet<>();
        for (String name : streams) {
            if (rnd.nextBoolean()) {
                s.add(name);
            }
        }
        if (s.isEmpty()) {
            s.add(streams.get(rnd.nextInt(streams.size())));
        }
        return s;
    }
}
