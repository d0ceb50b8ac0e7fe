package io.shardline.coordinator.assignor;

import java.util.Arrays;

/**
 * The last pass of the general sticky path: the fewest moves among all assignments with the same balance.
 *
 * <p>The balanced assignment is an optimal semi-matching, so every assignment as balanced has the same
 * multiset of member shard counts. This pass cancels negative cycles of hand-overs (min-cost flow cycle
 * cancelling) that keep that multiset: each member in a cycle gives one shard to the next, and at most
 * where a cycle passes a <em>level node</em> a member with {@code h - 1} shards keeps the shard it receives
 * while one with {@code h} gives one without receiving (the two counts swap). A hand-over costs {@code +1}
 * when the shard leaves its previous owner, {@code -1} when it returns to its previous owner, 0 otherwise.
 * Without a negative cycle no assignment with the same counts makes fewer moves (min-cost flow optimality with
 * the load costs convex), so the result moves no more shards than any equally balanced answer, Kafka's
 * included. Nodes are members, streams (a member gives a shard of a stream to any subscriber) and count
 * levels; cycles are found by a queue-based Bellman-Ford from the members holding a shard owned by another
 * member (every negative cycle contains such a return). Work is bounded, so huge inputs stay near-linear;
 * with nothing moved the pass costs one scan. Not thread-safe; one per call.
 */
final class MoveCycles {

    private final StickyInput in;
    private final int[] assignee;
    private final int n;
    private final int streams;
    /** Node ids: members {@code [0, n)}, streams {@code [n, n + streams)}, then count levels. */
    private final int levelBase;
    private final int[] count;
    /** Shards each member holds (lazily cleaned: entries whose assignee changed are skipped). */
    private final ShardLists held;
    /** Subscribers of each stream. */
    private final int[][] subscribers;
    /** Members per count (rebuilt after each cancelled cycle). */
    private int[][] byCount;
    private final int[] dist;
    private final int[] pred;
    private final int[] predShard;
    private final int[] queue;
    private final boolean[] queued;
    private final int[] streamCost;
    private final int[] streamStamp;
    /** Nodes whose distance dropped during the current pop. */
    private int[] pending = new int[64];
    private int pendingSize;
    private int stamp;
    private long work;

    private MoveCycles(StickyInput in, int[] assignee, int maxCount) {
        this.in = in;
        this.assignee = assignee;
        this.n = in.memberCount();
        this.streams = in.streamCount();
        this.levelBase = n + streams;
        this.count = new int[n];
        for (int a : assignee) {
            if (a >= 0) {
                count[a]++;
            }
        }
        this.held = new ShardLists(OwnedShards.byMember(assignee, n));
        this.subscribers = subscribersOf(in);
        int nodes = levelBase + maxCount + 2;
        dist = new int[nodes];
        pred = new int[nodes];
        predShard = new int[nodes];
        queue = new int[nodes];
        queued = new boolean[nodes];
        streamCost = new int[streams];
        streamStamp = new int[streams];
    }

    /**
     * Cancels negative cycles in place until none is left or {@code workLimit} edge visits are spent.
     *
     * @return how many moves were saved
     */
    static int minimise(StickyInput in, int[] assignee, long workLimit) {
        boolean anyReturn = false;
        int maxCount = 0;
        int[] count = new int[in.memberCount()];
        for (int s = 0; s < assignee.length; s++) {
            int a = assignee[s];
            if (a >= 0) {
                maxCount = Math.max(maxCount, ++count[a]);
                anyReturn |= in.owner()[s] >= 0 && in.owner()[s] != a;
            }
        }
        if (!anyReturn) {
            return 0;
        }
        return new MoveCycles(in, assignee, maxCount).run(workLimit);
    }

    private static int[][] subscribersOf(StickyInput in) {
        int[] sizes = new int[in.streamCount()];
        for (int[] ts : in.memberStreams) {
            for (int t : ts) {
                sizes[t]++;
            }
        }
        int[][] result = new int[sizes.length][];
        for (int t = 0; t < sizes.length; t++) {
            result[t] = new int[sizes[t]];
        }
        Arrays.fill(sizes, 0);
        for (int m = 0; m < in.memberCount(); m++) {
            for (int t : in.memberStreams[m]) {
                result[t][sizes[t]++] = m;
            }
        }
        return result;
    }

    private int run(long workLimit) {
        int saved = 0;
        while (work < workLimit) {
            int[] cycle = findNegativeCycle(workLimit);
            if (cycle == null) {
                break;
            }
            int gain = cancel(cycle);
            if (gain <= 0) {
                throw new IllegalStateException("sticky: a hand-over cycle saved no move");
            }
            saved += gain;
        }
        return saved;
    }

    /** Queue-based Bellman-Ford from every member (distance 0); the cycle's nodes in order, or null. */
    private int[] findNegativeCycle(long workLimit) {
        rebuildLevels();
        Arrays.fill(dist, 0);
        Arrays.fill(pred, -1);
        Arrays.fill(queued, false);
        int head = 0;
        int size = 0;
        for (int m = 0; m < n; m++) {
            queue[size++] = m;
            queued[m] = true;
        }
        long pops = 0;
        while (size > 0 && work < workLimit) {
            int u = queue[head];
            head = (head + 1) % queue.length;
            size--;
            queued[u] = false;
            if (u < n) {
                relaxMember(u);
            } else if (u < levelBase) {
                for (int v : subscribers[u - n]) {
                    relax(u, v, 0, -1);
                }
                work += subscribers[u - n].length;
            } else {
                int[] losers = byCount[u - levelBase];
                for (int v : losers) {
                    relax(u, v, 0, -1);
                }
                work += losers.length;
            }
            // enqueue what changed: relax() marks nodes; collect them into the ring
            for (int i = 0; i < pendingSize; i++) {
                int v = pending[i];
                if (!queued[v]) {
                    queued[v] = true;
                    queue[(head + size) % queue.length] = v;
                    size++;
                }
            }
            pendingSize = 0;
            if (++pops % pred.length == 0) {
                int[] cycle = cycleInPredecessors();
                if (cycle != null) {
                    return cycle;
                }
            }
        }
        return size > 0 ? cycleInPredecessors() : null;
    }

    private void relaxMember(int u) {
        stamp++;
        IntList shards = held.of(u);
        for (int i = 0; i < shards.size; i++) {
            int s = shards.values[i];
            if (assignee[s] != u) {
                continue;
            }
            int t = in.streamOfShard()[s];
            int o = in.owner()[s];
            if (o >= 0 && o != u) {
                relax(u, o, -1, s);
            }
            int cost = o == u ? 1 : 0;
            if (streamStamp[t] != stamp) {
                streamStamp[t] = stamp;
                streamCost[t] = cost;
            } else {
                streamCost[t] = Math.min(streamCost[t], cost);
            }
        }
        work += shards.size;
        for (int i = 0; i < shards.size; i++) {
            int s = shards.values[i];
            if (assignee[s] != u) {
                continue;
            }
            int t = in.streamOfShard()[s];
            if (streamStamp[t] == stamp) {
                streamStamp[t] = stamp - 1;
                relax(u, n + t, streamCost[t], -1);
            }
        }
        // u keeps the shard it received: its count rises to count + 1
        int level = levelBase + count[u] + 1;
        if (level < dist.length) {
            relax(u, level, 0, -1);
        }
    }

    private void relax(int u, int v, int cost, int shard) {
        int d = dist[u] + cost;
        if (d < dist[v]) {
            dist[v] = d;
            pred[v] = u;
            predShard[v] = shard;
            if (pendingSize == pending.length) {
                pending = Arrays.copyOf(pending, pendingSize * 2);
            }
            pending[pendingSize++] = v;
        }
    }

    /** A cycle in the predecessor graph (always negative), in forward order, or null. */
    private int[] cycleInPredecessors() {
        int nodes = pred.length;
        int[] mark = new int[nodes];
        for (int start = 0; start < nodes; start++) {
            if (mark[start] != 0) {
                continue;
            }
            int v = start;
            while (v >= 0 && mark[v] == 0) {
                mark[v] = start + 1;
                v = pred[v];
            }
            if (v >= 0 && mark[v] == start + 1) {
                int length = 1;
                for (int x = pred[v]; x != v; x = pred[x]) {
                    length++;
                }
                int[] cycle = new int[length];
                int x = v;
                for (int i = length - 1; i >= 0; i--) {
                    cycle[i] = x;
                    x = pred[x];
                }
                return cycle;
            }
        }
        return null;
    }

    /** Applies a cycle: picks every hand-over's shard first (on the current state), then moves them. */
    private int cancel(int[] cycle) {
        int len = cycle.length;
        int[] shardOf = new int[len];
        int[] receiver = new int[len];
        int pairs = 0;
        for (int i = 0; i < len; i++) {
            int u = cycle[i];
            if (u >= n) {
                continue;
            }
            int next = cycle[(i + 1) % len];
            if (next < n) {
                shardOf[pairs] = predShard[next];
                receiver[pairs++] = next;
            } else if (next < levelBase) {
                int v = cycle[(i + 2) % len];
                shardOf[pairs] = pick(u, next - n, v);
                receiver[pairs++] = v;
            }
        }
        int before = moves(shardOf, pairs);
        for (int i = 0; i < pairs; i++) {
            int s = shardOf[i];
            count[assignee[s]]--;
            assignee[s] = receiver[i];
            count[receiver[i]]++;
            held.add(receiver[i], s);
        }
        return before - moves(shardOf, pairs);
    }

    private int moves(int[] shards, int size) {
        int moved = 0;
        for (int i = 0; i < size; i++) {
            int s = shards[i];
            moved += in.owner()[s] >= 0 && assignee[s] != in.owner()[s] ? 1 : 0;
        }
        return moved;
    }

    /** The shard of stream {@code t} that {@code u} hands to {@code v}: the cheapest, rack-matching first. */
    private int pick(int u, int t, int v) {
        IntList shards = held.of(u);
        int best = -1;
        int bestRank = Integer.MAX_VALUE;
        for (int i = 0; i < shards.size; i++) {
            int s = shards.values[i];
            if (assignee[s] != u || in.streamOfShard()[s] != t) {
                continue;
            }
            int o = in.owner()[s];
            int cost = o == v ? -1 : o == u ? 1 : 0;
            int rank = (cost + 1) * 2 + (in.racks.enabled() && in.racks.matches(v, s) ? 0 : 1);
            if (rank < bestRank) {
                bestRank = rank;
                best = s;
            }
        }
        if (best < 0) {
            throw new IllegalStateException("sticky: member " + in.members[u].memberId()
                    + " holds no shard of " + in.streams[t]);
        }
        return best;
    }

    private void rebuildLevels() {
        int levels = dist.length - levelBase;
        int[] sizes = new int[levels];
        for (int m = 0; m < n; m++) {
            if (count[m] < levels) {
                sizes[count[m]]++;
            }
        }
        byCount = new int[levels][];
        for (int h = 0; h < levels; h++) {
            byCount[h] = new int[sizes[h]];
        }
        Arrays.fill(sizes, 0);
        for (int m = 0; m < n; m++) {
            if (count[m] < levels) {
                byCount[count[m]][sizes[count[m]]++] = m;
            }
        }
    }

    /** Growable shard lists per member. */
    private static final class ShardLists {
        private final IntList[] lists;

        ShardLists(int[][] initial) {
            lists = new IntList[initial.length];
            for (int m = 0; m < initial.length; m++) {
                lists[m] = new IntList(initial[m]);
            }
        }

        IntList of(int m) {
            return lists[m];
        }

        void add(int m, int shard) {
            lists[m].add(shard);
        }
    }

    /** A growable {@code int} list. */
    private static final class IntList {
        int[] values;
        int size;

        IntList(int[] initial) {
            values = initial;
            size = initial.length;
        }

        void add(int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, Math.max(4, size * 2));
            }
            values[size++] = v;
        }
    }
}
