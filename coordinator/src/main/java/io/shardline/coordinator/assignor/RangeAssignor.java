package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code range}: Kafka's {@code RangeAssignor} (with its rack-aware mode of KIP-881, Kafka 3.5+), with a stream
 * read as a topic and a shard as a partition; given the same input the result is the same, member for member.
 *
 * <p>Per stream, the subscribers are put in {@link MemberOrder} (static instance id first, then member id) and
 * the shards in number order; with {@code P} shards and {@code C} subscribers each subscriber gets a contiguous
 * range of {@code P / C} shards and the first {@code P % C} get one more.
 *
 * <p>Rack-aware mode is used when, for at least one stream, (1) some of its subscribers have a rack, (2) those
 * racks overlap the racks of its shards' replicas, and (3) not every shard is on exactly the same racks. Then,
 * before the plain ranges, shards are first given only to subscribers on one of their racks (a subscriber
 * without a rack matches any shard), with the same per-stream quotas: streams with the same subscribers and
 * the same shard count are treated together so that shard {@code i} of all of them goes to the same member
 * (co-partitioning, even for those streams that alone would not need rack-awareness), the others one by one
 * when they need it. What is left is then assigned as plain ranges. Streams that are unknown or have no shard
 * are ignored. Thread-safe (stateless); nothing is allocated per shard.
 */
public final class RangeAssignor implements Assignor {

    /** The name listeners use to select this assignor. */
    public static final String NAME = "range";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
        MemberSubscription[] members = MemberOrder.sorted(group);
        List<RangeStream> streams = streams(members, shards);
        if (streams.stream().anyMatch(s -> s.needsRackAwareAssignment)) {
            assignWithRackMatching(streams);
        }
        AssignmentCollector out = new AssignmentCollector(members);
        for (RangeStream s : streams) {
            if (s.started()) {
                s.assignRanges();
                out.putOwners(s.description.name(), s.subscribers, s.ownerRanks());
            } else {
                putPlainRanges(s, out);
            }
        }
        return out.build();
    }

    /** The known, non-empty streams that have subscribers, by name. */
    private static List<RangeStream> streams(MemberSubscription[] members, ShardDescriber shards) {
        String[] memberRacks = new String[members.length];
        for (int m = 0; m < members.length; m++) {
            memberRacks[m] = MemberOrder.rackOf(members[m]).orElse(null);
        }
        List<RangeStream> result = new ArrayList<>();
        for (StreamSubscribers entry : StreamSubscribers.of(members, shards)) {
            result.add(new RangeStream(entry.stream(), entry.members(), memberRacks));
        }
        return result;
    }

    /**
     * Plain ranges of a stream no rack-aware step touched, in closed form: subscriber {@code k} gets
     * {@code P / C} shards from {@code k * (P / C) + min(k, P % C)}, plus one when {@code k < P % C}.
     */
    private static void putPlainRanges(RangeStream s, AssignmentCollector out) {
        int shardCount = s.shardCount();
        int subscriberCount = s.subscribers.length;
        int per = shardCount / subscriberCount;
        int extra = shardCount % subscriberCount;
        for (int k = 0; k < Math.min(subscriberCount, shardCount); k++) {
            int start = per * k + Math.min(k, extra);
            int[] range = new int[per + (k < extra ? 1 : 0)];
            for (int i = 0; i < range.length; i++) {
                range[i] = start + i;
            }
            out.put(s.subscribers[k], s.description.name(), range);
        }
    }

    /**
     * The rack-matching pass: streams grouped by subscriber set, then by shard count; groups of several
     * streams are co-partitioned, single streams matched on their own if they need it.
     */
    private static void assignWithRackMatching(List<RangeStream> streams) {
        Map<SubscriberSet, Map<Integer, List<RangeStream>>> groups = new LinkedHashMap<>();
        for (RangeStream s : streams) {
            if (!s.anySubscriberRack) {
                continue; // Kafka looks at no shard rack here: nothing can match.
            }
            groups.computeIfAbsent(new SubscriberSet(s.subscribers), k -> new LinkedHashMap<>())
                    .computeIfAbsent(s.shardCount(), k -> new ArrayList<>())
                    .add(s);
        }
        for (Map<Integer, List<RangeStream>> byCount : groups.values()) {
            for (List<RangeStream> coPartitioned : byCount.values()) {
                if (coPartitioned.size() > 1) {
                    RangeCoPartitioning.assign(coPartitioned);
                } else if (coPartitioned.get(0).needsRackAwareAssignment) {
                    coPartitioned.get(0).assignRangesMatchingRacks();
                }
            }
        }
    }

    /** Member indexes compared by content, as a map key. */
    private record SubscriberSet(int[] members) {
        @Override
        public boolean equals(Object o) {
            return o instanceof SubscriberSet other && Arrays.equals(members, other.members);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(members);
        }

        @Override
        public String toString() {
            return Arrays.toString(members);
        }
    }
}
