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
        int[] indices = new int[in.streamCount()];
        ShardSet[] sets = new ShardSet[in.streamCount()];
        for (int m = 0; m < byMember.length; m++) {
            members.put(in.members[m].memberId(), memberAssignment(in, streams, byMember[m], singles, indices, sets));
        }
        return new GroupAssignment(members);
    }

    /**
     * One member's assignment from its global shards (ascending, so grouped by stream in stream order). The
     * stream of each run is found from {@code streamOffset} ({@link #streamAfter}), not from
     * {@code streamOfShard}: a member's shards are spread over the whole array, and a look-up there per shard
     * would be a cache miss per shard. {@code indices} and {@code sets} are scratch arrays of the stream count.
     */
    private static MemberAssignment memberAssignment(StickyInput in, SortedStreams streams, int[] shards,
            ShardSet[] singles, int[] indices, ShardSet[] sets) {
        if (shards.length == 0) {
            return MemberAssignment.EMPTY;
        }
        int[] offset = in.streamOffset;
        int n = 0;
        int t = -1;
        int i = 0;
        while (i < shards.length) {
            int shard = shards[i];
            t = streamAfter(offset, streams.size(), t, shard);
            int base = offset[t];
            int end = i + 1;
            while (end < shards.length && shards[end] < offset[t + 1]) {
                end++;
            }
            ShardSet set;
            if (end - i == 1) {
                set = single(singles, shard - base);
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
        return n == streams.size()
                ? MemberAssignment.ofSorted(streams, Arrays.copyOf(sets, n))
                : MemberAssignment.ofSorted(streams, Arrays.copyOf(indices, n), Arrays.copyOf(sets, n));
    }

    /**
     * The stream of global shard {@code shard}, which lies at or after the first shard of stream {@code t + 1}:
     * a few streams are probed one by one (members of identical subscriptions usually get the next stream or
     * the one after), then a binary search over the rest. Empty streams share their offset with the next one;
     * the last stream starting at or before {@code shard} is the one.
     */
    private static int streamAfter(int[] offset, int streamCount, int t, int shard) {
        int probe = t + 1;
        int stop = Math.min(streamCount - 1, probe + 4);
        while (probe < stop && offset[probe + 1] <= shard) {
            probe++;
        }
        if (offset[probe + 1] <= shard) {
            int k = Arrays.binarySearch(offset, probe + 1, streamCount + 1, shard);
            probe = k >= 0 ? k : -k - 2;
            while (probe + 1 < streamCount && offset[probe + 1] <= shard) {
                probe++;
            }
        }
        return probe;
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
