package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardSet;
import java.util.TreeMap;

/**
 * Collects per-member, per-stream shard arrays and turns them into a {@link GroupAssignment} in which every
 * member appears. Members are addressed by their index in the array given at construction. Shard arrays are
 * handed over (not copied). Not thread-safe: one per {@code assign} call.
 */
final class AssignmentCollector {

    private final MemberSubscription[] members;
    private final SortedStreamList[] shards;

    AssignmentCollector(MemberSubscription[] members) {
        this.members = members;
        this.shards = new SortedStreamList[members.length];
    }

    /**
     * Gives {@code shardArray} of {@code stream} to member {@code index}; takes ownership of the array. Streams
     * must be handed out in ascending name order.
     */
    void put(int index, String stream, int[] shardArray) {
        if (shardArray.length == 0) {
            return;
        }
        if (shards[index] == null) {
            shards[index] = new SortedStreamList();
        }
        shards[index].append(stream, ShardSet.fromArray(shardArray));
    }

    /**
     * Hands out a stream by an owner array over its subscribers: {@code ownerRank[shard]} is the position in
     * {@code subscribers} (member indexes) of the member that gets {@code shard}, or -1 for none. Each member's
     * shards come out ascending.
     */
    void putOwners(String stream, int[] subscribers, int[] ownerRank) {
        int[] counts = new int[subscribers.length];
        for (int o : ownerRank) {
            if (o >= 0) {
                counts[o]++;
            }
        }
        int[][] arrays = new int[subscribers.length][];
        for (int k = 0; k < subscribers.length; k++) {
            if (counts[k] > 0) {
                arrays[k] = new int[counts[k]];
            }
        }
        int[] fill = new int[subscribers.length];
        for (int shard = 0; shard < ownerRank.length; shard++) {
            int o = ownerRank[shard];
            if (o >= 0) {
                arrays[o][fill[o]++] = shard;
            }
        }
        for (int k = 0; k < subscribers.length; k++) {
            if (arrays[k] != null) {
                put(subscribers[k], stream, arrays[k]);
            }
        }
    }

    /** The assignment: every member, {@link MemberAssignment#EMPTY} for those that got nothing. */
    GroupAssignment build() {
        TreeMap<String, MemberAssignment> result = new TreeMap<>();
        for (int m = 0; m < members.length; m++) {
            result.put(members[m].memberId(), shards[m] == null ? MemberAssignment.EMPTY : shards[m].toAssignment());
        }
        return new GroupAssignment(result);
    }
}
