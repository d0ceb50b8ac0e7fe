package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.MemberAssignment;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.SortedStreams;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SortedMap;

/**
 * Turns a sticky assignment in array form (member index per global shard) into the SPI's immutable
 * {@link GroupAssignment}. The shards are read stream by stream, in order, and each member's sets go straight
 * into the arrays of its {@link io.shardline.api.assignor.StreamShardMap} over the problem's sorted streams
 * (one key array shared by every member that gets shards of every stream): no per-member shard lists, no
 * look-up of a shard's stream. One {@code int[]}-backed {@link ShardSet} per member and stream, one-shard sets
 * shared between members. Not thread-safe; one per call.
 */
final class StickyResult {

    private final StickyInput in;
    private final int[] assignee;
    /** Per member: its sets, in stream order, and the stream index of each (null when it has every stream). */
    private final ShardSet[][] sets;
    private final int[][] indices;
    private final int[] filled;
    /** Per member, within the current stream: shard count, its first shard, and the buffer when several. */
    private final int[] count;
    private final int[] first;
    private final int[][] buffer;
    /** Members with a shard of the current stream, in order of their first shard. */
    private final int[] touched;
    /** One-shard sets by shard number, made on first use and shared. */
    private final ShardSet[] singles;

    private StickyResult(StickyInput in, int[] assignee) {
        this.in = in;
        this.assignee = assignee;
        int n = in.memberCount();
        this.sets = new ShardSet[n][];
        this.indices = new int[n][];
        this.filled = new int[n];
        this.count = new int[n];
        this.first = new int[n];
        this.buffer = new int[n][];
        this.touched = new int[n];
        int widest = 0;
        for (int t = 0; t < in.streamCount(); t++) {
            widest = Math.max(widest, in.streamOffset[t + 1] - in.streamOffset[t]);
        }
        this.singles = new ShardSet[widest];
    }

    /** The assignment of every member of {@code in} (empty for members that get nothing). */
    static GroupAssignment toGroupAssignment(StickyInput in, int[] assignee) {
        return new StickyResult(in, assignee).build();
    }

    private GroupAssignment build() {
        allocate();
        for (int t = 0; t < in.streamCount(); t++) {
            collect(t);
        }
        SortedStreams streams = SortedStreams.of(in.streams);
        MemberAssignment[] members = new MemberAssignment[in.memberCount()];
        for (int m = 0; m < in.memberCount(); m++) {
            MemberAssignment a;
            if (sets[m] == null) {
                a = MemberAssignment.EMPTY;
            } else if (indices[m] == null) {
                a = MemberAssignment.ofSorted(streams, sets[m]);
            } else {
                a = MemberAssignment.ofSorted(streams, indices[m], sets[m]);
            }
            members[m] = a;
        }
        return new GroupAssignment(new MembersInOrder(in, members));
    }

    /** Sizes each member's arrays: one entry per stream it gets a shard of. */
    private void allocate() {
        int n = in.memberCount();
        int[] entries = new int[n];
        int[] lastStream = new int[n];
        Arrays.fill(lastStream, -1);
        for (int t = 0; t < in.streamCount(); t++) {
            for (int s = in.streamOffset[t]; s < in.streamOffset[t + 1]; s++) {
                int m = assignee[s];
                if (m >= 0 && lastStream[m] != t) {
                    lastStream[m] = t;
                    entries[m]++;
                }
            }
        }
        for (int m = 0; m < n; m++) {
            if (entries[m] > 0) {
                sets[m] = new ShardSet[entries[m]];
                indices[m] = entries[m] == in.streamCount() ? null : new int[entries[m]];
            }
        }
    }

    /** Appends every member's set of stream {@code t}. */
    private void collect(int t) {
        int base = in.streamOffset[t];
        int end = in.streamOffset[t + 1];
        int members = 0;
        boolean several = false;
        for (int s = base; s < end; s++) {
            int m = assignee[s];
            if (m >= 0 && count[m]++ == 0) {
                touched[members++] = m;
                first[m] = s - base;
            } else if (m >= 0) {
                several = true;
            }
        }
        if (several) {
            fillBuffers(base, end, members);
        }
        for (int k = 0; k < members; k++) {
            int m = touched[k];
            ShardSet set;
            if (count[m] == 1) {
                set = single(first[m]);
            } else {
                // ascending already: fromArray's sort is a linear pass
                set = ShardSet.fromArray(buffer[m]);
                buffer[m] = null;
            }
            int f = filled[m]++;
            sets[m][f] = set;
            if (indices[m] != null) {
                indices[m][f] = t;
            }
            count[m] = 0;
        }
    }

    /** Second pass over a stream in which some member has several shards: their shard numbers, ascending. */
    private void fillBuffers(int base, int end, int members) {
        int[] pos = first;
        for (int k = 0; k < members; k++) {
            int m = touched[k];
            if (count[m] > 1) {
                buffer[m] = new int[count[m]];
                pos[m] = 0;
            }
        }
        for (int s = base; s < end; s++) {
            int m = assignee[s];
            if (m >= 0 && count[m] > 1) {
                buffer[m][pos[m]++] = s - base;
            }
        }
    }

    /** The shared set {@code {shard}}, made on first use. */
    private ShardSet single(int shard) {
        ShardSet set = singles[shard];
        if (set == null) {
            set = ShardSet.of(shard);
            singles[shard] = set;
        }
        return set;
    }

    /**
     * The members' assignments as a read-only {@link SortedMap} in member id order (the order of
     * {@link StickyInput#members}), only so that {@link GroupAssignment} copies it in linear time: a
     * {@code TreeMap} built from a sorted map does no comparisons. Only what that copy reads is supported.
     */
    private static final class MembersInOrder extends AbstractMap<String, MemberAssignment>
            implements SortedMap<String, MemberAssignment> {

        private final StickyInput in;
        private final MemberAssignment[] assignments;

        MembersInOrder(StickyInput in, MemberAssignment[] assignments) {
            this.in = in;
            this.assignments = assignments;
        }

        @Override
        public Set<Entry<String, MemberAssignment>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Entry<String, MemberAssignment>> iterator() {
                    return new Iterator<>() {
                        private int next;

                        @Override
                        public boolean hasNext() {
                            return next < assignments.length;
                        }

                        @Override
                        public Entry<String, MemberAssignment> next() {
                            if (next >= assignments.length) {
                                throw new NoSuchElementException();
                            }
                            int m = next++;
                            return new SimpleImmutableEntry<>(in.members[m].memberId(), assignments[m]);
                        }
                    };
                }

                @Override
                public int size() {
                    return assignments.length;
                }
            };
        }

        @Override
        public Comparator<? super String> comparator() {
            return null;
        }

        @Override
        public String firstKey() {
            throw new UnsupportedOperationException("only for copying");
        }

        @Override
        public String lastKey() {
            throw new UnsupportedOperationException("only for copying");
        }

        @Override
        public SortedMap<String, MemberAssignment> subMap(String fromKey, String toKey) {
            throw new UnsupportedOperationException("only for copying");
        }

        @Override
        public SortedMap<String, MemberAssignment> headMap(String toKey) {
            throw new UnsupportedOperationException("only for copying");
        }

        @Override
        public SortedMap<String, MemberAssignment> tailMap(String fromKey) {
            throw new UnsupportedOperationException("only for copying");
        }
    }
}
