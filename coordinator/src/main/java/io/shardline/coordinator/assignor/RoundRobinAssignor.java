package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code round-robin}: Kafka's {@code RoundRobinAssignor}, with a stream read as a topic and a shard as a
 * partition; given the same input the result is the same, member for member.
 *
 * <p>All shards of all subscribed streams are laid out in order (streams by name, then shard number) and
 * dealt one at a time to the members in {@link MemberOrder} (static instance id first, then member id), going
 * round in a circle; a member that does not subscribe to the shard's stream is skipped, and the circle goes on
 * from the member after the one that got the shard. With identical subscriptions the counts differ by at most
 * one; otherwise the result can be very uneven. Streams that are unknown or have no shard are ignored.
 *
 * <p>Within one stream the dealing visits that stream's subscribers in order, so shard {@code i} goes to
 * subscriber {@code (start + i) mod k}; this implementation computes those arithmetic progressions directly
 * (no per-shard objects). Members of different weights ({@code member.weight}) get shares proportional to
 * their weights ({@link #weighted}); with equal weights the result is Kafka's. Thread-safe (stateless).
 */
public final class RoundRobinAssignor implements Assignor {

    /** The name listeners use to select this assignor. */
    public static final String NAME = "round-robin";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
        MemberSubscription[] members = MemberOrder.sorted(group);
        if (WeightedShares.weighted(members)) {
            return weighted(members, StreamSubscribers.of(members, shards));
        }
        AssignmentCollector out = new AssignmentCollector(members);
        int next = 0;
        for (StreamSubscribers entry : StreamSubscribers.of(members, shards)) {
            String stream = entry.stream().name();
            int[] subscribers = entry.members();
            int shardCount = entry.stream().shardCount();
            int k = subscribers.length;
            int start = firstAtOrAfter(subscribers, next);
            for (int j = 0; j < Math.min(k, shardCount); j++) {
                // Subscriber (start + j) mod k gets shards j, j + k, j + 2k, ...
                int count = (shardCount - j + k - 1) / k;
                int[] mine = new int[count];
                for (int c = 0, shard = j; c < count; c++, shard += k) {
                    mine[c] = shard;
                }
                out.put(subscribers[(start + j) % k], stream, mine);
            }
            int last = subscribers[(start + shardCount - 1) % k];
            next = (last + 1) % members.length;
        }
        return out.build();
    }

    /**
     * Members of different weights: the same dealing round the circle, except that a member that has its share
     * ({@link WeightedShares}, over all shards with identical subscriptions, else over each stream's subscribers) is
     * skipped too. Every member gets its share, within one shard of proportional.
     */
    private static GroupAssignment weighted(MemberSubscription[] members, List<StreamSubscribers> streams) {
        boolean identical = true;
        int total = 0;
        for (StreamSubscribers s : streams) {
            identical &= s.members().length == members.length;
            total += s.stream().shardCount();
        }
        long[] weights = new long[members.length];
        for (int m = 0; m < members.length; m++) {
            weights[m] = members[m].weight();
        }
        int[] quota = identical ? WeightedShares.of(total, weights, new int[members.length]) : null;
        int[] held = new int[members.length];
        AssignmentCollector out = new AssignmentCollector(members);
        int next = 0;
        for (StreamSubscribers entry : streams) {
            int[] subscribers = entry.members();
            int count = entry.stream().shardCount();
            int[] streamQuota = new int[members.length];
            int[] streamHeld = new int[members.length];
            if (!identical) {
                long[] w = new long[subscribers.length];
                for (int j = 0; j < subscribers.length; j++) {
                    w[j] = weights[subscribers[j]];
                }
                int[] q = WeightedShares.of(count, w, new int[subscribers.length]);
                for (int j = 0; j < subscribers.length; j++) {
                    streamQuota[subscribers[j]] = q[j];
                }
            }
            boolean[] reads = new boolean[members.length];
            for (int m : subscribers) {
                reads[m] = true;
            }
            List<List<Integer>> mine = new ArrayList<>();
            for (int m = 0; m < members.length; m++) {
                mine.add(new ArrayList<>());
            }
            for (int shard = 0; shard < count; shard++) {
                while (!reads[next] || (identical ? held[next] >= quota[next] : streamHeld[next] >= streamQuota[next])) {
                    next = (next + 1) % members.length;
                }
                mine.get(next).add(shard);
                held[next]++;
                streamHeld[next]++;
                next = (next + 1) % members.length;
            }
            for (int m = 0; m < members.length; m++) {
                if (!mine.get(m).isEmpty()) {
                    out.put(m, entry.stream().name(), mine.get(m).stream().mapToInt(Integer::intValue).toArray());
                }
            }
        }
        return out.build();
    }

    /** The position in the ascending {@code subscribers} of the first index {@code >= from}, wrapping to 0. */
    private static int firstAtOrAfter(int[] subscribers, int from) {
        int pos = Arrays.binarySearch(subscribers, from);
        if (pos < 0) {
            pos = -pos - 1;
        }
        return pos == subscribers.length ? 0 : pos;
    }
}
