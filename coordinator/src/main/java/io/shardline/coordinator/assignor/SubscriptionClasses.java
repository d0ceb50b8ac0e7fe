package io.shardline.coordinator.assignor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Members grouped by identical subscriptions. Members of one class can take exactly the same shards, so the
 * general sticky path balances load between classes (a small problem) and then inside each class (exact).
 * Classes are numbered in order of their first member, streams of a class ascend. Immutable after
 * construction; not shared between calls.
 */
final class SubscriptionClasses {

    /** Class of each member. */
    final int[] classOf;
    /** Members of each class, ascending. */
    final int[][] members;
    /** Streams of each class, ascending. */
    final int[][] streams;
    /** Classes subscribing to each stream, ascending. */
    final int[][] streamClasses;
    /** For {@code streamClasses[t][k]}, the position of {@code t} in that class's {@link #streams}. */
    final int[][] streamPositions;
    /** Number of members subscribing to each stream. */
    final int[] subscribers;

    SubscriptionClasses(int[][] memberStreams, int streamCount) {
        int n = memberStreams.length;
        classOf = new int[n];
        Map<Key, Integer> ids = new HashMap<>();
        List<int[]> classStreams = new ArrayList<>();
        int[] sizes = new int[n];
        for (int m = 0; m < n; m++) {
            Key key = new Key(memberStreams[m]);
            Integer id = ids.get(key);
            if (id == null) {
                id = classStreams.size();
                ids.put(key, id);
                classStreams.add(memberStreams[m]);
            }
            classOf[m] = id;
            sizes[id]++;
        }
        int k = classStreams.size();
        members = new int[k][];
        streams = classStreams.toArray(new int[0][]);
        for (int c = 0; c < k; c++) {
            members[c] = new int[sizes[c]];
        }
        int[] fill = new int[k];
        for (int m = 0; m < n; m++) {
            members[classOf[m]][fill[classOf[m]]++] = m;
        }
        int[] perStream = new int[streamCount];
        subscribers = new int[streamCount];
        for (int c = 0; c < k; c++) {
            for (int t : streams[c]) {
                perStream[t]++;
                subscribers[t] += members[c].length;
            }
        }
        streamClasses = new int[streamCount][];
        streamPositions = new int[streamCount][];
        for (int t = 0; t < streamCount; t++) {
            streamClasses[t] = new int[perStream[t]];
            streamPositions[t] = new int[perStream[t]];
        }
        Arrays.fill(perStream, 0);
        for (int c = 0; c < k; c++) {
            for (int j = 0; j < streams[c].length; j++) {
                int t = streams[c][j];
                streamClasses[t][perStream[t]] = c;
                streamPositions[t][perStream[t]++] = j;
            }
        }
    }

    /** Number of classes. */
    int count() {
        return members.length;
    }

    /** Position of stream {@code t} in the streams of class {@code c}, or a negative number. */
    int position(int c, int t) {
        return Arrays.binarySearch(streams[c], t);
    }

    private record Key(int[] streams) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key other && Arrays.equals(streams, other.streams);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(streams);
        }
    }
}
