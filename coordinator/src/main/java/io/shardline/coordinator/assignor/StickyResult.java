package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.ShardSet;
import java.util.Arrays;
import java.util.TreeMap;

/**
 * Turns a sticky assignment in array form (member index per global shard) into the SPI's immutable
 * {@link GroupAssignment}, with one {@code int[]}-backed {@link ShardSet} per member and stream.
 * Stateless.
 */
final class StickyResult {

    private StickyResult() {
    }

    /** The assignment of every member of {@code in} (empty for members that get nothing). */
    static GroupAssignment toGroupAssignment(StickyInput in, int[] assignee) {
        int[][] byMember = OwnedShards.byMember(assignee, in.memberCount());
        TreeMap<String, MemberAssignment> members = new TreeMap<>();
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
                int[] local = Arrays.copyOfRange(shards, i, end);
                for (int k = 0; k < local.length; k++) {
                    local[k] -= base;
                }
                streams.append(in.streams[t], ShardSet.fromArray(local));
                i = end;
            }
            members.put(in.members[m].memberId(), new MemberAssignment(streams));
        }
        return new GroupAssignment(members);
    }
}
