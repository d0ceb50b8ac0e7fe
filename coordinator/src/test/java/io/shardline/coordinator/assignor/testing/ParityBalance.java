package io.shardline.coordinator.assignor.testing;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The balance of an assignment as the parity rule with Kafka's assignors measures it (docs/assignors.md, "Parity
 * with Kafka"): per group of members with identical subscriptions, the largest minus the smallest shard count;
 * per stream, whether a shard of it could move to a subscriber holding two or more fewer shards of that stream
 * (shards left unassigned, as a cooperative assignor withholds them, count for nobody); and Kafka's balance
 * score as a last measure. Immutable.
 *
 * @param classSpreads per identical subscription set (its streams joined by spaces): max minus min shard count
 * @param unevenStreams the streams with a shard that could move to a subscriber holding 2+ fewer of them
 * @param score Kafka's balance score ({@link AssignmentChecks#balanceScore}); lower is better
 */
public record ParityBalance(Map<String, Integer> classSpreads, SortedSet<String> unevenStreams, long score) {

    /** Copies. */
    public ParityBalance {
        classSpreads = Map.copyOf(classSpreads);
        unevenStreams = new TreeSet<>(unevenStreams);
    }

    /** The balance of {@code assignment} for {@code group} over {@code shards}. */
    public static ParityBalance of(GroupSpec group, ShardDescriber shards, GroupAssignment assignment) {
        Map<String, int[]> minMax = new TreeMap<>();
        Map<String, Integer> spreads = new TreeMap<>();
        Map<String, int[]> streamMinMax = new TreeMap<>();
        for (MemberSubscription m : group.members()) {
            MemberAssignment a = assignment.member(m.memberId());
            int n = a.size();
            String key = String.join(" ", m.subscriptions());
            int[] mm = minMax.computeIfAbsent(key, k -> new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE});
            mm[0] = Math.min(mm[0], n);
            mm[1] = Math.max(mm[1], n);
            for (String stream : m.subscriptions()) {
                if (shards.shardCount(stream) <= 0) {
                    continue;
                }
                // [fewest shards held by a subscriber, most shards held by a member holding a shard of stream]
                int[] sm = streamMinMax.computeIfAbsent(stream, k -> new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE});
                sm[0] = Math.min(sm[0], n);
                if (!a.shardsOf(stream).isEmpty()) {
                    sm[1] = Math.max(sm[1], n);
                }
            }
        }
        minMax.forEach((k, mm) -> spreads.put(k, mm[1] - mm[0]));
        SortedSet<String> uneven = new TreeSet<>();
        streamMinMax.forEach((stream, sm) -> {
            if (sm[1] - sm[0] >= 2) {
                uneven.add(stream);
            }
        });
        return new ParityBalance(spreads, uneven, AssignmentChecks.balanceScore(assignment));
    }

    /**
     * The ways in which this balance is worse than {@code kafka}'s: a class whose spread is larger, a stream that
     * is uneven here but not there, a higher score. Empty when at least as good by every measure.
     */
    public List<String> worseThan(ParityBalance kafka) {
        List<String> worse = new ArrayList<>();
        classSpreads.forEach((subscriptions, spread) -> {
            int theirs = kafka.classSpreads.getOrDefault(subscriptions, 0);
            if (spread > Math.max(1, theirs)) {
                worse.add("members subscribed to [" + subscriptions + "] differ by " + spread + " shards, Kafka's by "
                        + theirs);
            }
        });
        List<String> streams = unevenStreams.stream().filter(s -> !kafka.unevenStreams.contains(s)).toList();
        if (!streams.isEmpty()) {
            worse.add(streams.size() + " stream(s) " + streams + " with a shard that could move to a subscriber holding"
                    + " 2+ fewer of it, where Kafka's has none");
        }
        return worse;
    }

    /** True when both are equally balanced by every measure (then the moves decide). */
    public boolean sameAs(ParityBalance other) {
        return classSpreads.equals(other.classSpreads) && unevenStreams.equals(other.unevenStreams)
                && score == other.score;
    }
}
