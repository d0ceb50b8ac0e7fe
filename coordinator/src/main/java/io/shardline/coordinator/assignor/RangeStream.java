package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.StreamDescription;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * One stream's state during a {@link RangeAssignor} run (Kafka's {@code TopicAssignmentState}): its
 * subscribers in member order, their quotas, and which subscriber got which shard so far.
 *
 * <p>Quotas: with {@code P} shards and {@code C} subscribers each subscriber may take {@code P / C} shards,
 * and {@code P % C} of them one more; a subscriber that goes above {@code P / C} uses up one of those extras.
 * A subscriber's remaining quota ({@link #maxAssignable}) never grows during a run. Shards are tracked in an
 * {@code int[]} of owner positions; nothing is allocated per shard. Not thread-safe: one per run.
 */
final class RangeStream {

    /** The stream. */
    final StreamDescription description;
    /** The subscribers' member indexes, in member order; a subscriber's position here is its rank. */
    final int[] subscribers;
    /** True when at least one subscriber has a rack (Kafka then looks at shard racks at all). */
    final boolean anySubscriberRack;
    /** Kafka's enabling condition for rack-aware assignment of this stream alone. */
    final boolean needsRackAwareAssignment;

    private final String[] memberRacks;
    private final int perSubscriber;
    private int remainingWithExtra;
    /** Per shard: the rank of the subscriber that got it, or -1; null until the first shard is taken. */
    private int[] ownerRank;
    private int[] assignedCount;
    private int unassigned;

    /**
     * A fresh stream state.
     *
     * @param memberRacks per member index (not rank): the member's rack, or null; shared, not copied
     */
    RangeStream(StreamDescription description, int[] subscribers, String[] memberRacks) {
        this.description = description;
        this.subscribers = subscribers;
        this.memberRacks = memberRacks;
        int shards = description.shardCount();
        this.unassigned = shards;
        this.perSubscriber = shards / subscribers.length;
        this.remainingWithExtra = shards % subscribers.length;
        Set<String> racks = new HashSet<>();
        for (int m : subscribers) {
            if (memberRacks[m] != null) {
                racks.add(memberRacks[m]);
            }
        }
        this.anySubscriberRack = !racks.isEmpty();
        this.needsRackAwareAssignment = anySubscriberRack && racksDifferAndOverlap(racks);
    }

    /** The rack of the subscriber of {@code rank}, or null. */
    String rackOf(int rank) {
        return memberRacks[subscribers[rank]];
    }

    /** True once any shard was taken (by a rack-aware step). */
    boolean started() {
        return ownerRank != null;
    }

    /** Per shard, the rank of the subscriber that got it, or -1. */
    int[] ownerRanks() {
        start();
        return ownerRank;
    }

    /** The shard count. */
    int shardCount() {
        return description.shardCount();
    }

    /** How many more shards the subscriber of {@code rank} may take now. */
    int maxAssignable(int rank) {
        int assigned = assignedCount == null ? 0 : assignedCount[rank];
        return Math.max(0, perSubscriber + (remainingWithExtra > 0 ? 1 : 0) - assigned);
    }

    /** True when the subscriber of {@code rank} has no rack, or {@code shard} has a replica on its rack. */
    boolean racksMatch(int rank, int shard) {
        String rack = rackOf(rank);
        return rack == null || description.racksOf(shard).contains(rack);
    }

    /** Gives {@code shard} to the subscriber of {@code rank}; call {@link #onAssigned} after a batch. */
    void take(int rank, int shard) {
        start();
        ownerRank[shard] = rank;
        unassigned--;
    }

    /** Books a batch of {@code n} shards just given to {@code rank} against its quota. */
    void onAssigned(int rank, int n) {
        start();
        assignedCount[rank] += n;
        if (assignedCount[rank] > perSubscriber) {
            remainingWithExtra--;
        }
    }

    /**
     * Plain range assignment of what is left: each subscriber in order takes the lowest unassigned shards, up
     * to its quota.
     */
    void assignRanges() {
        start();
        int cursor = 0;
        for (int rank = 0; rank < subscribers.length && unassigned > 0; rank++) {
            int max = maxAssignable(rank);
            int n = 0;
            while (n < max && cursor < ownerRank.length) {
                if (ownerRank[cursor] < 0) {
                    take(rank, cursor);
                    n++;
                }
                cursor++;
            }
            if (n > 0) {
                onAssigned(rank, n);
            }
        }
    }

    /**
     * Rack-aware range assignment of a stream on its own: each subscriber in order takes the lowest unassigned
     * shards that match its rack (any shard, if it has no rack), up to its quota. One cursor per rack (and one
     * for rack-less subscribers) walks that rack's shards; cursors only move forward because shards are only
     * ever taken during the pass.
     */
    void assignRangesMatchingRacks() {
        start();
        Map<String, int[]> shardsByRack = shardsByRack();
        Map<String, Integer> cursors = new HashMap<>();
        int plainCursor = 0;
        for (int rank = 0; rank < subscribers.length && unassigned > 0; rank++) {
            int max = maxAssignable(rank);
            if (max == 0) {
                continue;
            }
            String rack = rackOf(rank);
            int n = 0;
            if (rack == null) {
                while (n < max && plainCursor < ownerRank.length) {
                    if (ownerRank[plainCursor] < 0) {
                        take(rank, plainCursor);
                        n++;
                    }
                    plainCursor++;
                }
            } else {
                int[] candidates = shardsByRack.getOrDefault(rack, new int[0]);
                int cursor = cursors.getOrDefault(rack, 0);
                while (n < max && cursor < candidates.length) {
                    int shard = candidates[cursor++];
                    if (ownerRank[shard] < 0) {
                        take(rank, shard);
                        n++;
                    }
                }
                cursors.put(rack, cursor);
            }
            if (n > 0) {
                onAssigned(rank, n);
            }
        }
    }

    private void start() {
        if (ownerRank == null) {
            ownerRank = new int[description.shardCount()];
            Arrays.fill(ownerRank, -1);
            assignedCount = new int[subscribers.length];
        }
    }

    /** Per rack, the shards with a replica on it, ascending. */
    private Map<String, int[]> shardsByRack() {
        Map<String, int[]> counts = new HashMap<>();
        for (int shard = 0; shard < description.shardCount(); shard++) {
            for (String r : description.racksOf(shard)) {
                counts.computeIfAbsent(r, k -> new int[1])[0]++;
            }
        }
        Map<String, int[]> lists = new HashMap<>();
        Map<String, Integer> fill = new HashMap<>();
        counts.forEach((r, c) -> lists.put(r, new int[c[0]]));
        for (int shard = 0; shard < description.shardCount(); shard++) {
            for (String r : description.racksOf(shard)) {
                int i = fill.merge(r, 1, Integer::sum) - 1;
                lists.get(r)[i] = shard;
            }
        }
        return lists;
    }

    /**
     * Kafka's {@code useRackAwareAssignment}: the subscribers' racks must overlap the shards' racks, and not
     * every shard may sit on exactly the same racks (then every choice would be equally rack-local).
     */
    private boolean racksDifferAndOverlap(Set<String> memberRacks) {
        Set<String> allShardRacks = new HashSet<>();
        for (int shard = 0; shard < description.shardCount(); shard++) {
            allShardRacks.addAll(description.racksOf(shard));
        }
        if (Collections.disjoint(memberRacks, allShardRacks)) {
            return false;
        }
        for (int shard = 0; shard < description.shardCount(); shard++) {
            if (!description.racksOf(shard).equals(allShardRacks)) {
                return true;
            }
        }
        return false;
    }
}
