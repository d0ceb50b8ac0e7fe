package io.shardline.coordinator.assignor;

import java.util.Arrays;

/**
 * The balance of a sticky assignment and of its first {@code cooperative-sticky} round, by the measures of the parity
 * rule with Kafka's assignors (docs/assignors.md, "Parity with Kafka"), for {@link FirstRoundCounts}: per class of
 * identical subscriptions the spread of shard counts (converged) and of readable counts (first round, shards withheld
 * count for nobody); per stream whether it is uneven (a member holding, or in the first round reading, one of its
 * shards holds or reads two or more more than another subscriber); Kafka's balance score, the largest minus the
 * smallest count, moves and rack-local shards of the converged assignment. Mutable scratch; not thread-safe.
 */
final class RoundMeasures {

    private final StickyInput in;
    private final SubscriptionClasses cls;
    private final int[] owner;
    private final int[] claimer;
    private final int[] streamOf;
    /** Per member: shards held (converged) and readable in the first round. */
    final int[] count;
    final int[] readable;
    /** Per class: converged spread (0 and 1 both as 1), first-round spread above 1. */
    final int[] spread;
    final int[] excess;
    /** Per stream: uneven in the converged assignment / in the first round. */
    final boolean[] uneven;
    final boolean[] firstUneven;
    /** Per stream: the fewest shards a subscriber reads in the first round. */
    final int[] minReadable;
    long score;
    int maxMinusMin;
    long moves;
    long local;
    /** Work done (shards and subscriptions looked at) by {@link #measure}. */
    final long cost;

    RoundMeasures(StickyInput in, SubscriptionClasses cls) {
        this.in = in;
        this.cls = cls;
        this.owner = in.owner();
        this.claimer = in.claimer();
        this.streamOf = in.streamOfShard();
        int n = in.memberCount();
        this.count = new int[n];
        this.readable = new int[n];
        this.spread = new int[cls.count()];
        this.excess = new int[cls.count()];
        this.uneven = new boolean[in.streamCount()];
        this.firstUneven = new boolean[in.streamCount()];
        this.minReadable = new int[in.streamCount()];
        long subscriptions = 0;
        for (int[] streams : in.memberStreams) {
            subscriptions += streams.length;
        }
        this.cost = in.shardCount() + subscriptions + n;
    }

    /** True when {@code shard} is withheld from {@code member} in the first round. */
    boolean withheld(int shard, int member) {
        int claim = claimer[shard];
        return claim != -1 && owner[shard] != member && claim != member;
    }

    /** Measures {@code assignee} (member index per global shard). */
    void measure(int[] assignee) {
        Arrays.fill(count, 0);
        Arrays.fill(readable, 0);
        moves = 0;
        local = 0;
        for (int s = 0; s < assignee.length; s++) {
            int m = assignee[s];
            if (m < 0) {
                continue;
            }
            count[m]++;
            readable[m] += withheld(s, m) ? 0 : 1;
            moves += owner[s] >= 0 && owner[s] != m ? 1 : 0;
            local += in.racks.matches(m, s) ? 1 : 0;
        }
        int streams = in.streamCount();
        int[] minCount = new int[streams];
        int[] maxCount = new int[streams];
        int[] maxReadable = new int[streams];
        Arrays.fill(minCount, Integer.MAX_VALUE);
        Arrays.fill(minReadable, Integer.MAX_VALUE);
        Arrays.fill(maxCount, Integer.MIN_VALUE);
        Arrays.fill(maxReadable, Integer.MIN_VALUE);
        for (int m = 0; m < count.length; m++) {
            for (int t : in.memberStreams[m]) {
                minCount[t] = Math.min(minCount[t], count[m]);
                minReadable[t] = Math.min(minReadable[t], readable[m]);
            }
        }
        for (int s = 0; s < assignee.length; s++) {
            int m = assignee[s];
            if (m >= 0) {
                int t = streamOf[s];
                maxCount[t] = Math.max(maxCount[t], count[m]);
                if (!withheld(s, m)) {
                    maxReadable[t] = Math.max(maxReadable[t], readable[m]);
                }
            }
        }
        for (int t = 0; t < streams; t++) {
            uneven[t] = maxCount[t] != Integer.MIN_VALUE && maxCount[t] - minCount[t] >= 2;
            firstUneven[t] = maxReadable[t] != Integer.MIN_VALUE && maxReadable[t] - minReadable[t] >= 2;
        }
        for (int c = 0; c < cls.count(); c++) {
            int lo = Integer.MAX_VALUE;
            int hi = Integer.MIN_VALUE;
            int firstLo = Integer.MAX_VALUE;
            int firstHi = Integer.MIN_VALUE;
            for (int m : cls.members[c]) {
                lo = Math.min(lo, count[m]);
                hi = Math.max(hi, count[m]);
                firstLo = Math.min(firstLo, readable[m]);
                firstHi = Math.max(firstHi, readable[m]);
            }
            spread[c] = Math.max(1, hi - lo);
            excess[c] = Math.max(0, firstHi - firstLo - 1);
        }
        int[] sorted = count.clone();
        Arrays.sort(sorted);
        score = 0;
        for (int i = 0; i < sorted.length; i++) {
            score += (long) sorted[i] * (2L * i - sorted.length + 1);
        }
        maxMinusMin = sorted.length == 0 ? 0 : sorted[sorted.length - 1] - sorted[0];
    }

    /**
     * True when these measures are no worse than {@code before}'s by any measure, converged or first round, and the
     * first round is better by one (a class's spread above 1 smaller, or a stream even that was uneven).
     */
    boolean improves(RoundMeasures before) {
        if (score > before.score || maxMinusMin > before.maxMinusMin || moves > before.moves
                || local < before.local) {
            return false;
        }
        boolean better = false;
        for (int c = 0; c < spread.length; c++) {
            if (spread[c] > before.spread[c] || excess[c] > before.excess[c]) {
                return false;
            }
            better |= excess[c] < before.excess[c];
        }
        for (int t = 0; t < uneven.length; t++) {
            if (uneven[t] && !before.uneven[t] || firstUneven[t] && !before.firstUneven[t]) {
                return false;
            }
            better |= before.firstUneven[t] && !firstUneven[t];
        }
        return better;
    }

    /** True when the first round has a class spread above 1 or an uneven stream. */
    boolean firstRoundUneven() {
        for (int e : excess) {
            if (e > 0) {
                return true;
            }
        }
        for (boolean u : firstUneven) {
            if (u) {
                return true;
            }
        }
        return false;
    }

    /** Copies {@code other}'s measures into this one. */
    void copyFrom(RoundMeasures other) {
        System.arraycopy(other.count, 0, count, 0, count.length);
        System.arraycopy(other.readable, 0, readable, 0, readable.length);
        System.arraycopy(other.spread, 0, spread, 0, spread.length);
        System.arraycopy(other.excess, 0, excess, 0, excess.length);
        System.arraycopy(other.uneven, 0, uneven, 0, uneven.length);
        System.arraycopy(other.firstUneven, 0, firstUneven, 0, firstUneven.length);
        System.arraycopy(other.minReadable, 0, minReadable, 0, minReadable.length);
        score = other.score;
        maxMinusMin = other.maxMinusMin;
        moves = other.moves;
        local = other.local;
    }
}
