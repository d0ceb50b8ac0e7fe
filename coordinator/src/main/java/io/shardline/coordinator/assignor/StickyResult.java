package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.SortedStreams;
import java.util.Arrays;
import java.util.TreeMap;

/**
 * Turns a sticky assignment in array form (member index per global shard) into the SPI's immutable
 * {@link GroupAssignment}: each member's streams go straight into the arrays of a
 * {@link io.shardline.api.assignor.StreamShardMap} over the problem's sorted streams (one key array shared by
 * every member that gets shards of every stream), with one {@code int[]}-backed {@link ShardSet} per member and
 * stream (one-shard sets shared between members). Stateless.
 */
final class StickyResult {

    private StickyResult() {
    }

    /** The assignment of every member of {@code in} (empty for members that get nothing). */
    static GroupAssignment toGroupAssignment(StickyInput in, int[] assignee) {
        int[][] byMember = OwnedShards.byMember(assignee, in.memberCount());
        SortedStreams streams = SortedStreams.of(in.streams);
        TreeMap<String, MemberAssignment> members = new TreeMap<>();
        // one-shard sets are shared (ShardSet is immutable): many streams with fewer shards than members give
        // every member one shard of each, a million sets that would otherwise each be two objects
        int widest = 0;
        for (int t = 0; t < in.streamCount(); t++) {
            widest = Math.max(widest, in.streamOffset[t + 1] - in.streamOffset[t]);
        }
        ShardSet[] singles = new ShardSet[widest];
        for (int m = 0; m < byMember.length; m++) {
            members.put(in.members[m].memberId(), memberAssignment(in, streams, byMember[m], singles));
        }
        return new GroupAssignment(members);
    }

    /** One member's assignment from its global shards (ascending, so grouped by stream in stream order). */
    private static MemberAssignment memberAssignment(StickyInput in, SortedStreams streams, int[] shards,
            ShardSet[] singles) {
        if (shards.length == 0) {
            return MemberAssignment.EMPTY;
        }
        int count = 1;
        for (int i = 1; i < shards.length; i++) {
            if (in.streamOfShard[shards[i]] != in.streamOfShard[shards[i - 1]]) {
                count++;
            }
        }
        int[] indices = new int[count];
        ShardSet[] sets = new ShardSet[count];
        int n = 0;
        int i = 0;
        while (i < shards.length) {
            int t = in.streamOfShard[shards[i]];
            int base = in.streamOffset[t];
            int end = i + 1;
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
            indices[n] = t;
            sets[n++] = set;
            i = end;
        }
        return MemberAssignment.ofSorted(streams, indices, sets);
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
