package io.shardline.coordinator.assignor;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The co-partitioned step of the rack-aware {@link RangeAssignor} (Kafka's
 * {@code assignCoPartitionedWithRackMatching}): streams with the same subscribers and the same shard count
 * are walked shard number by shard number; shard {@code i} of every one of them goes to the first subscriber
 * (in member order) that still has quota and whose rack holds shard {@code i} of every stream (a subscriber
 * without a rack matches anything). Shards no subscriber matches are left for the plain ranges.
 *
 * <p>The streams start fresh and are always assigned together, so their quotas move in lockstep and the first
 * stream's quotas stand for all. A subscriber's quota never grows, so subscribers without quota can be dropped
 * from the front of per-rack queues for good: each shard number costs one look per rack of that shard.
 * Not thread-safe: used within one run.
 */
final class RangeCoPartitioning {

    private RangeCoPartitioning() {
    }

    /** Runs the step over {@code streams} (at least two, same subscribers, same shard count, fresh). */
    static void assign(List<RangeStream> streams) {
        RangeStream first = streams.get(0);
        int subscriberCount = first.subscribers.length;
        RankQueue rackless = new RankQueue(subscriberCount);
        Map<String, RankQueue> byRack = new HashMap<>();
        for (int rank = 0; rank < subscriberCount; rank++) {
            String rack = first.rackOf(rank);
            (rack == null ? rackless : byRack.computeIfAbsent(rack, r -> new RankQueue(subscriberCount))).add(rank);
        }
        for (int shard = 0; shard < first.shardCount(); shard++) {
            int best = rackless.firstWithQuota(first);
            for (String rack : first.description.racksOf(shard)) {
                RankQueue queue = byRack.get(rack);
                if (queue == null || !onAllStreams(streams, rack, shard)) {
                    continue;
                }
                int candidate = queue.firstWithQuota(first);
                if (candidate >= 0 && (best < 0 || candidate < best)) {
                    best = candidate;
                }
            }
            if (best >= 0) {
                for (RangeStream s : streams) {
                    s.take(best, shard);
                    s.onAssigned(best, 1);
                }
            }
        }
    }

    private static boolean onAllStreams(List<RangeStream> streams, String rack, int shard) {
        for (int i = 1; i < streams.size(); i++) {
            if (!streams.get(i).description.racksOf(shard).contains(rack)) {
                return false;
            }
        }
        return true;
    }

    /** Ascending subscriber ranks; ranks whose quota ran out are dropped from the front. */
    private static final class RankQueue {
        private final int[] ranks;
        private int head;
        private int size;

        RankQueue(int capacity) {
            this.ranks = new int[capacity];
        }

        void add(int rank) {
            ranks[size++] = rank;
        }

        int firstWithQuota(RangeStream quotas) {
            while (head < size && quotas.maxAssignable(ranks[head]) == 0) {
                head++;
            }
            return head < size ? ranks[head] : -1;
        }
    }
}
