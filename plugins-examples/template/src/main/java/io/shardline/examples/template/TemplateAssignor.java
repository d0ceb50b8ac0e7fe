package io.shardline.examples.template;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An assignor plugin to start from: per stream, its subscribers each get {@code shards / subscribers} shards
 * (the first {@code shards % subscribers} one more, in member-id order); a member keeps the shards it owned up
 * to its share, and the rest are dealt out to the members below theirs, lowest shard first. So it is balanced
 * and sticky, in a few lines (the built-in {@code sticky} also balances across streams and racks).
 *
 * <p>The rules every assignor follows are in the Javadoc of {@link Assignor}: a pure function of its input (no
 * I/O, clock or unseeded randomness), every shard of a subscribed stream to exactly one subscriber, an entry for
 * every member. The leader runs it on its own thread under {@code assignor.timeout.ms}; a failure keeps the group
 * on its previous target. Selected in a listener file by {@code assignor = template-balanced} (its {@link #name()})
 * or by its class name, once the jar is on {@code plugin.path} of every worker. Stateless and thread-safe.
 */
public final class TemplateAssignor implements Assignor {

    @Override
    public String name() {
        return "template-balanced";
    }

    @Override
    public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
        Map<String, Map<String, List<Integer>>> out = new TreeMap<>();
        group.members().forEach(m -> out.put(m.memberId(), new TreeMap<>()));
        for (String stream : shards.streams().keySet()) {
            List<MemberSubscription> readers = group.members().stream()
                    .filter(m -> m.subscriptions().contains(stream))
                    .sorted(Comparator.comparing(MemberSubscription::memberId))
                    .toList();
            if (!readers.isEmpty()) {
                assignStream(stream, shards.shardCount(stream), readers, out);
            }
        }
        Map<String, MemberAssignment> result = new TreeMap<>();
        out.forEach((member, byStream) -> {
            Map<String, ShardSet> sets = new TreeMap<>();
            byStream.forEach((stream, list) -> sets.put(stream, ShardSet.of(list)));
            result.put(member, MemberAssignment.of(sets));
        });
        return GroupAssignment.of(result);
    }

    private static void assignStream(String stream, int count, List<MemberSubscription> readers,
                                     Map<String, Map<String, List<Integer>>> out) {
        boolean[] taken = new boolean[count];
        int[] share = new int[readers.size()];
        List<List<Integer>> kept = new ArrayList<>();
        for (int i = 0; i < readers.size(); i++) {
            share[i] = count / readers.size() + (i < count % readers.size() ? 1 : 0);
            List<Integer> mine = new ArrayList<>();
            ShardSet owned = readers.get(i).owned().getOrDefault(stream, ShardSet.of());
            for (int j = 0; j < owned.size() && mine.size() < share[i]; j++) {
                int shard = owned.get(j);
                if (shard < count && !taken[shard]) {
                    taken[shard] = true;
                    mine.add(shard);
                }
            }
            kept.add(mine);
        }
        int next = 0;
        for (int i = 0; i < readers.size(); i++) {
            List<Integer> mine = kept.get(i);
            while (mine.size() < share[i]) {
                while (taken[next]) {
                    next++;
                }
                taken[next] = true;
                mine.add(next);
            }
            if (!mine.isEmpty()) {
                out.get(readers.get(i).memberId()).put(stream, mine);
            }
        }
    }
}
