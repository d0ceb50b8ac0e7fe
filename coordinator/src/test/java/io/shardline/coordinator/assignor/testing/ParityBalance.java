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
 * per stream, whether a shard of it could move to a subscriber holding two or more fewer shards in all (shards
 * left unassigned, as a cooperative assignor withholds them, count for nobody); and Kafka's balance score as a
 * tie-break. These are the measures of Kafka's own {@code AbstractStickyAssignor.isBalanced}: counts that differ by
 * at most one are balanced, and otherwise no shard may sit with a member holding two or more shards more (in all)
 * than another subscriber of its stream. Immutable.
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
            // a stream nobody holds (every shard withheld) has no shard that could move
            if (sm[1] != Integer.MIN_VALUE && sm[1] - sm[0] >= 2) {
                uneven.add(stream);
            }
        });
        return new ParityBalance(spreads, uneven, AssignmentChecks.balanceScore(assignment));
    }

    /**
     * The ways in which this balance is worse than {@code kafka}'s: a class whose spread is larger (a spread of 1
     * counts as even, as in Kafka's own {@code isBalanced}), a stream that is uneven here but not there, a higher
     * score. Empty when at least as good by every measure.
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

    /**
     * True when this balance is strictly better than {@code other}'s: not worse by any measure and better by one (a
     * class spread above 1 that is smaller, a stream even here and uneven there), or, with the same class spreads and
     * uneven streams, a lower score. Otherwise the two count as equally balanced and the moves decide (a class spread
     * of 1 against 0 is even, so it is not an excuse for more moves either).
     */
    public boolean betterThan(ParityBalance other) {
        if (!worseThan(other).isEmpty()) {
            return false;
        }
        if (!other.worseThan(this).isEmpty()) {
            return true;
        }
        return evenlySpread(classSpreads).equals(evenlySpread(other.classSpreads))
                && unevenStreams.equals(other.unevenStreams) && score < other.score;
    }

    /** Class spreads with 0 and 1 both counted as 1 (even). */
    private static Map<String, Integer> evenlySpread(Map<String, Integer> spreads) {
        Map<String, Integer> even = new TreeMap<>();
        spreads.forEach((k, v) -> even.put(k, Math.max(1, v)));
        return even;
    }
}
