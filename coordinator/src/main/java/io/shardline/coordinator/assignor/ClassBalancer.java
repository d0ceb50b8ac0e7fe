package io.shardline.coordinator.assignor;

import java.util.Arrays;

/**
 * Decides how many shards of each stream each subscription class gets, so that members end up as balanced
 * as the subscriptions allow while previously owned shards stay where they are whenever possible.
 *
 * <p>A class {@code c} with {@code n} members and load {@code L} spreads it as {@code floor(L/n)} or
 * {@code ceil(L/n)} per member. Starting from the owned counts, free shards are poured stream by stream
 * (streams with the fewest subscribers first) onto the least loaded classes ("water filling"). Then
 * improving paths are removed: a path from a class whose busiest member has {@code H} shards, through
 * streams and classes that can pass a shard on, to a class whose idlest member has {@code H - 2} or fewer.
 * Without such a path no member-level improving path exists either, which makes the loads an optimal
 * semi-matching (Harvey et al.): the maximum, the minimum and every convex measure of balance are optimal
 * at once, so the result is at least as balanced as Kafka's single-move local search. Paths are found by
 * a cheapest-path search (passing on a shard that was not owned there costs nothing, an owned one a move) and
 * augmented in bulk; classes from which no path leaves at the top level are frozen for good.
 * Not thread-safe; one per call.
 */
final class ClassBalancer {

    private final SubscriptionClasses cls;
    /** Shards held per class and stream position. */
    final int[][] held;
    /** Shards previously owned by the class's members, per class and stream position. */
    final int[][] owned;
    /** Load of each class. */
    final long[] load;
    private final int[] size;
    /** Owned shard counts of each class's members, ascending. */
    private final int[][] memberOwned;
    /** Prefix sums of {@link #memberOwned}. */
    private final long[][] memberOwnedSums;

    ClassBalancer(SubscriptionClasses cls, int[][] owned, int[][] memberOwned) {
        this.cls = cls;
        this.owned = owned;
        this.memberOwned = memberOwned;
        this.memberOwnedSums = new long[memberOwned.length][];
        for (int c = 0; c < memberOwned.length; c++) {
            long[] sums = new long[memberOwned[c].length + 1];
            for (int i = 0; i < memberOwned[c].length; i++) {
                sums[i + 1] = sums[i] + memberOwned[c][i];
            }
            memberOwnedSums[c] = sums;
        }
        int k = cls.count();
        held = new int[k][];
        load = new long[k];
        size = new int[k];
        for (int c = 0; c < k; c++) {
            held[c] = owned[c].clone();
            for (int v : owned[c]) {
                load[c] += v;
            }
            size[c] = cls.members[c].length;
        }
    }

    /** Pours the free shards of every stream onto the least loaded classes, scarce streams first. */
    void placeFree(int[] free) {
        Integer[] order = new Integer[free.length];
        for (int t = 0; t < order.length; t++) {
            order[t] = t;
        }
        Arrays.sort(order, (a, b) -> cls.subscribers[a] != cls.subscribers[b]
                ? Integer.compare(cls.subscribers[a], cls.subscribers[b]) : Integer.compare(a, b));
        for (int t : order) {
            if (free[t] > 0) {
                pour(t, free[t]);
            }
        }
    }

    private void pour(int t, long amount) {
        int[] classes = cls.streamClasses[t];
        long lo = 0;
        long hi = amount + 1;
        for (int c : classes) {
            hi = Math.max(hi, load[c] / size[c] + amount + 1);
        }
        // largest level such that raising every class to it needs no more than amount
        while (hi - lo > 1) {
            long mid = (lo + hi) >>> 1;
            if (need(classes, mid) <= amount) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        long left = amount;
        int[] positions = cls.streamPositions[t];
        for (int k = 0; k < classes.length; k++) {
            int c = classes[k];
            long give = Math.max(0, lo * size[c] - load[c]);
            add(c, positions[k], give);
            left -= give;
        }
        // the rest raises members from lo to lo + 1: first where that lets a member keep an owned shard
        for (int k = 0; k < classes.length && left > 0; k++) {
            int c = classes[k];
            long give = Math.min(left, Math.min(keepingRoom(c), Math.max(0, (lo + 1) * size[c] - load[c])));
            add(c, positions[k], give);
            left -= give;
        }
        for (int k = 0; k < classes.length && left > 0; k++) {
            int c = classes[k];
            long give = Math.min(left, Math.max(0, (lo + 1) * size[c] - load[c]));
            add(c, positions[k], give);
            left -= give;
        }
        if (left != 0) {
            throw new IllegalStateException("sticky: could not place " + left + " shards of stream #" + t);
        }
    }

    /**
     * How many more shards class {@code c} can take at its current level such that each one raises the
     * target of a member that owns more than its target (so it keeps an owned shard instead of moving it).
     * Targets: with {@code L = q * n + r}, the {@code r} members owning the most have {@code q + 1}.
     */
    private long keepingRoom(int c) {
        int[] ownedAscending = memberOwned[c];
        long q = load[c] / size[c];
        long r = load[c] % size[c];
        // members owning at least q + 1
        int from = 0;
        int to = ownedAscending.length;
        while (from < to) {
            int mid = (from + to) >>> 1;
            if (ownedAscending[mid] >= q + 1) {
                to = mid;
            } else {
                from = mid + 1;
            }
        }
        long atLeast = ownedAscending.length - from;
        return Math.max(0, atLeast - r);
    }

    private long need(int[] classes, long level) {
        long total = 0;
        for (int c : classes) {
            total += Math.max(0, level * size[c] - load[c]);
        }
        return total;
    }

    private void add(int c, int position, long amount) {
        held[c][position] += (int) amount;
        load[c] += amount;
    }

    private long top(int c) {
        return (load[c] + size[c] - 1) / size[c];
    }

    private long bottom(int c) {
        return load[c] / size[c];
    }

    /** Removes every improving path (see the class comment). */
    void improve() {
        int k = cls.count();
        int t = cls.streamClasses.length;
        boolean[] frozen = new boolean[k];
        for (int c = 0; c < k; c++) {
            frozen[c] = cls.streams[c].length == 0;
        }
        PathSearch search = new PathSearch(k, t);
        while (true) {
            long h = Long.MIN_VALUE;
            long minBottom = Long.MAX_VALUE;
            for (int c = 0; c < k; c++) {
                if (!frozen[c]) {
                    h = Math.max(h, top(c));
                    minBottom = Math.min(minBottom, bottom(c));
                }
            }
            if (h == Long.MIN_VALUE || h - minBottom <= 1) {
                return;
            }
            int target = search.run(h, frozen, false);
            if (target < 0) {
                search.freezeReached(frozen);
            } else {
                augment(search, target, h);
            }
        }
    }

    /**
     * Balance-neutral transfers that keep more owned shards: one shard moves, along streams whose shards
     * were not owned where they are, from a class at top level {@code h} whose member losing a target owned
     * no more than its new target, to a class at bottom level {@code h - 1} where the member gaining a
     * target owns more than it may keep. The multiset of member loads does not change. Bounded work.
     */
    void reduceMoves(long workLimit) {
        int k = cls.count();
        long edges = 0;
        for (int[] streams : cls.streams) {
            edges += streams.length;
        }
        long work = 0;
        boolean[] none = new boolean[k];
        PathSearch search = new PathSearch(k, cls.streamClasses.length);
        long maxTop = Long.MIN_VALUE;
        long minTop = Long.MAX_VALUE;
        for (int c = 0; c < k; c++) {
            if (load[c] > 0) {
                maxTop = Math.max(maxTop, top(c));
                minTop = Math.min(minTop, top(c));
            }
        }
        for (long h = maxTop; h >= minTop && h >= 1 && work < workLimit; h--) {
            while (work < workLimit) {
                work += k + edges;
                int target = search.run(h, none, true);
                if (target < 0) {
                    break;
                }
                augment(search, target, h, 1);
            }
        }
    }

    /**
     * Owned shards class {@code c} will give up anyway: what its members own beyond their targets, minus
     * owned shards already outside the class's stream budgets. Passing one of them on costs no extra move.
     */
    private long surplus(int c) {
        int[] a = memberOwned[c];
        long[] sums = memberOwnedSums[c];
        int n = a.length;
        long q = load[c] / size[c];
        int r = (int) (load[c] % size[c]);
        long beyond = excess(a, sums, 0, n - r, q) + excess(a, sums, n - r, n, q + 1);
        long outside = 0;
        for (int j = 0; j < held[c].length; j++) {
            outside += Math.max(0, owned[c][j] - held[c][j]);
        }
        return beyond - outside;
    }

    /** Sum of {@code max(0, a[i] - limit)} for {@code i} in {@code [from, to)} of an ascending array. */
    private static long excess(int[] a, long[] sums, int from, int to, long limit) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] > limit) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return sums[to] - sums[lo] - limit * (to - lo);
    }

    /** True when taking one shard from class {@code c} lowers the target of a member owning no more than it. */
    private boolean releasesNothingOwned(int c) {
        int[] ownedAscending = memberOwned[c];
        int n = ownedAscending.length;
        long q = load[c] / size[c];
        long r = load[c] % size[c];
        return r > 0 ? ownedAscending[(int) (n - r)] <= q : ownedAscending[0] <= q - 1;
    }

    private void augment(PathSearch search, int target, long h) {
        augment(search, target, h, (h - 1) * size[target] - load[target]);
    }

    /** Moves up to {@code limit} shards along the path found to {@code target} (limited by the path). */
    private void augment(PathSearch search, int target, long h, long limit) {
        long amount = limit;
        int c = target;
        int source = -1;
        while (c >= 0) {
            int stream = search.parentStream[c];
            if (stream < 0) {
                source = c;
                break;
            }
            int from = search.parentClass[stream];
            int j = search.parentPosition[stream];
            int slack = held[from][j] > owned[from][j] ? held[from][j] - owned[from][j]
                    : (int) Math.min(held[from][j], Math.max(1, surplus(from)));
            amount = Math.min(amount, slack);
            c = from;
        }
        amount = Math.min(amount, load[source] - (h - 1) * size[source]);
        if (amount <= 0) {
            throw new IllegalStateException("sticky: empty improving path");
        }
        c = target;
        while (true) {
            int stream = search.parentStream[c];
            if (stream < 0) {
                break;
            }
            int from = search.parentClass[stream];
            int j = search.parentPosition[stream];
            int pos = cls.position(c, stream);
            held[c][pos] += (int) amount;
            held[from][j] -= (int) amount;
            c = from;
        }
        load[target] += amount;
        load[source] -= amount;
    }

    /**
     * Balance-neutral exchanges that keep more owned shards: when class {@code A} lacks a shard of stream
     * {@code s} that its members owned (held below owned), class {@code B} holds a shard of {@code s} nobody
     * there owned, and {@code A} holds a non-owned shard of a stream {@code s2} that {@code B} reads, the two
     * classes swap one shard each. Loads do not change; one move less. Bounded work (at most
     * {@code workLimit} steps) keeps the pass near-linear on huge inputs.
     */
    void exchange(long workLimit) {
        long work = 0;
        boolean changed = true;
        while (changed && work < workLimit) {
            changed = false;
            for (int a = 0; a < cls.count() && work < workLimit; a++) {
                int[] streamsA = cls.streams[a];
                for (int j = 0; j < streamsA.length && work < workLimit; j++) {
                    while (held[a][j] < owned[a][j] && work < workLimit) {
                        if (!swapOne(a, j)) {
                            break;
                        }
                        changed = true;
                    }
                    work += cls.streamClasses[streamsA[j]].length;
                }
            }
        }
    }

    private boolean swapOne(int a, int j) {
        int s = cls.streams[a][j];
        int[] classes = cls.streamClasses[s];
        int[] positions = cls.streamPositions[s];
        int[] streamsA = cls.streams[a];
        for (int k = 0; k < classes.length; k++) {
            int b = classes[k];
            int jb = positions[k];
            if (b == a || held[b][jb] <= owned[b][jb]) {
                continue;
            }
            for (int j2 = 0; j2 < streamsA.length; j2++) {
                if (j2 == j || held[a][j2] <= owned[a][j2]) {
                    continue;
                }
                int jb2 = cls.position(b, streamsA[j2]);
                if (jb2 < 0) {
                    continue;
                }
                held[b][jb]--;
                held[a][j]++;
                held[a][j2]--;
                held[b][jb2]++;
                return true;
            }
        }
        return false;
    }

    /**
     * Cheapest-path search over classes and streams with a bucket queue (Dial): passing on a shard nobody
     * owned where it is costs 0, an owned one the class will give up anyway ({@link #surplus}) costs 1, any
     * other owned one 2. Reusable.
     */
    private final class PathSearch {
        final int classes;
        final int[] dist;
        final int[] parentStream;
        final int[] parentClass;
        final int[] parentPosition;
        final boolean[] reached;
        /** Bucket heads by distance, then entries as linked lists. */
        int[] bucket;
        int[] entryNode = new int[1024];
        int[] entryDist = new int[1024];
        int[] entryNext = new int[1024];
        int entries;

        PathSearch(int classes, int streams) {
            this.classes = classes;
            dist = new int[classes + streams];
            parentStream = new int[classes];
            parentClass = new int[streams];
            parentPosition = new int[streams];
            reached = new boolean[classes];
            bucket = new int[2 * (classes + streams) + 3];
        }

        private void push(int node, int d) {
            if (entries == entryNode.length) {
                int grown = entries * 2;
                entryNode = Arrays.copyOf(entryNode, grown);
                entryDist = Arrays.copyOf(entryDist, grown);
                entryNext = Arrays.copyOf(entryNext, grown);
            }
            entryNode[entries] = node;
            entryDist[entries] = d;
            entryNext[entries] = bucket[d];
            bucket[d] = entries++;
        }

        /**
         * Finds the cheapest path from a class at top level {@code h} to one at {@code h - 2} or lower, or in
         * {@code neutral} mode (free shards only) to one at bottom level {@code h - 1} where a member would keep
         * one more owned shard. Returns the target class or -1; parents describe the path.
         */
        int run(long h, boolean[] frozen, boolean neutral) {
            Arrays.fill(dist, Integer.MAX_VALUE);
            Arrays.fill(reached, false);
            Arrays.fill(bucket, -1);
            entries = 0;
            for (int c = 0; c < classes; c++) {
                if (!frozen[c] && load[c] > 0 && top(c) == h && (!neutral || releasesNothingOwned(c))) {
                    dist[c] = 0;
                    parentStream[c] = -1;
                    push(c, 0);
                }
            }
            for (int d = 0; d < bucket.length; d++) {
                while (bucket[d] != -1) {
                    int e = bucket[d];
                    bucket[d] = entryNext[e];
                    int node = entryNode[e];
                    if (entryDist[e] != dist[node]) {
                        continue;
                    }
                    int target = node < classes ? visitClass(node, h, frozen, neutral) : visitStream(node, frozen);
                    if (target >= 0) {
                        return target;
                    }
                }
            }
            return -1;
        }

        private int visitClass(int c, long h, boolean[] frozen, boolean neutral) {
            if (reached[c]) {
                return -1;
            }
            reached[c] = true;
            if (!neutral && bottom(c) <= h - 2
                    || neutral && parentStream[c] >= 0 && bottom(c) == h - 1 && keepingRoom(c) > 0) {
                return c;
            }
            int[] streams = cls.streams[c];
            long surplus = neutral ? 0 : surplus(c);
            for (int j = 0; j < streams.length; j++) {
                if (held[c][j] == 0) {
                    continue;
                }
                int cost = held[c][j] > owned[c][j] ? 0 : surplus > 0 ? 1 : 2;
                if (neutral && cost > 0) {
                    continue;
                }
                int s = classes + streams[j];
                int d = dist[c] + cost;
                if (d < dist[s]) {
                    dist[s] = d;
                    parentClass[streams[j]] = c;
                    parentPosition[streams[j]] = j;
                    push(s, d);
                }
            }
            return -1;
        }

        private int visitStream(int node, boolean[] frozen) {
            int stream = node - classes;
            int d = dist[node];
            for (int c : cls.streamClasses[stream]) {
                if (!frozen[c] && !reached[c] && d < dist[c]) {
                    dist[c] = d;
                    parentStream[c] = stream;
                    push(c, d);
                }
            }
            return -1;
        }

        void freezeReached(boolean[] frozen) {
            for (int c = 0; c < classes; c++) {
                frozen[c] |= reached[c];
            }
        }
    }
}
