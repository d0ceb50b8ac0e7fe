package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.ShardSet;
import java.util.Arrays;
import java.util.TreeMap;

/**
 * Turns a sticky assignment in array form (member index per global shard) into the SPI's immutable
 * {@link GroupAssignment}, with one {@code int[]}-backed {@link ShardSet} per member and stream (one-shard
 * sets shared between members). Stateless.
 */
final class StickyResult {

    private StickyResult() {
    }

    /** The assignment of every member of {@code in} (empty for members that get nothing). */
    static GroupAssignment toGroupAssignment(StickyInput in, int[] assignee) {
        int[][] byMember = OwnedShards.byMember(assignee, in.memberCount());
        TreeMap<String, MemberAssignment> members = new TreeMap<>();
        // one-shard sets are shared (ShardSet is immutable): many streams with fewer shards than members give
        // every member one shard of each, a million sets that would otherwise each be two objects
        int widest = 0;
        for (int t = 0; t < in.streamCount(); t++) {
            widest = Math.max(widest, in.streamOffset[t + 1] - in.streamOffset[t]);
        }
        ShardSet[] singles = new ShardSet[widest];
        for (int m = 0; m < byMember.length; m++) {
            int[] shards = byMember[m];
            SortedStreamList streams = new SortedStreamList();
            int i = 0;
            while (i < shards.length) {
                int t = in.streamOfShard[shards[i]];
                int base = in.streamOffset[t];
                int end = i;
                while (end < shards.length && shards[end] < in.streamOffset[t + 1]) {
                    end++;
                }
                ShardSet set;
                if (end - i == 1) {
                    set = single(singles, shards[i] - base);
                } else {
                    int[] local = Arrays.copyOfRange(shards, i, end);
                    for (int k = 0; k < local.length; k++) {
                        local[k] -= base;
                    }
                    set = ShardSet.fromArray(local);
                }
                streams.append(in.streams[t], set);
                i = end;
            }
            members.put(in.members[m].memberId(), new MemberAssignment(streams));
        }
        return new GroupAssignment(members);
    }

    /** The shared set {@code {shard}}, made on first use. */
    private static ShardSet single(ShardSet[] cache, int shard) {
        ShardSet set = cache[shard];
        if (set == null) {
            set = ShardSet.of(shard);
            cache[shard] = set;
        }
        return set;
    }
}
