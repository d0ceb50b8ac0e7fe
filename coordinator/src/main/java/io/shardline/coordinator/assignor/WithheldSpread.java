package io.shardline.coordinator.assignor;

import java.util.Arrays;

/**
 * The last pass of the unweighted sticky paths: spreads the shards that {@code cooperative-sticky} withholds
 * over their receivers, so that the first cooperative round is as even as it can be for the same moves.
 *
 * <p>A <em>receipt</em> is a shard given to a member that did not own it. It is withheld in the cooperative
 * round when another member claims it ({@link CooperativeStickyAssignor#withholdTransfers}), and readable at
 * once when nobody claims it (a free shard). Which receiver of a stream gets which of that stream's receipts
 * changes neither anybody's shard count nor the number of moves; it only changes how many shards each receiver
 * can read during the cooperative round. The balancers choose it without looking (a new member could get only
 * withheld shards and read nothing while another gets only free ones), so this pass swaps, stream by stream, a
 * free receipt of a receiver that reads 2 or more shards more than another receiver of the stream with the
 * withheld receipt of that other receiver, while the swap keeps the rack-local shard count. Every swap lowers
 * the sum of squares of the readable counts, so the pass ends; the {@code sticky} result changes only in which
 * new shard a receiver gets, never in counts, moves or balance. Linear in shards plus receipts times receivers
 * per stream in the worst case. Not thread-safe; one per call.
 */
final class WithheldSpread {

    private final StickyInput in;
    private final int[] assignee;
    private final int[] owner;
    private final int[] claimer;
    /** Shards each member can read in the cooperative round (its assignment minus what is withheld from it). */
    private final int[] readable;

    private WithheldSpread(StickyInput in, int[] assignee) {
        this.in = in;
        this.assignee = assignee;
        this.owner = in.owner();
        this.claimer = in.claimer();
        this.readable = new int[in.memberCount()];
    }

    /** Applies the pass to {@code assignee} (member index per global shard) in place. */
    static void apply(StickyInput in, int[] assignee) {
        if (!in.anyClaim()) {
            return;
        }
        new WithheldSpread(in, assignee).run();
    }

    private boolean withheld(int shard, int member) {
        int claim = claimer[shard];
        return claim != -1 && owner[shard] != member && claim != member;
    }

    private boolean receipt(int shard) {
        return assignee[shard] >= 0 && owner[shard] != assignee[shard];
    }

    private void run() {
        for (int s = 0; s < assignee.length; s++) {
            if (assignee[s] >= 0 && !withheld(s, assignee[s])) {
                readable[assignee[s]]++;
            }
        }
        int[] free = new int[16];
        int[] held = new int[16];
        for (int t = 0; t < in.streamCount(); t++) {
            int freeCount = 0;
            int heldCount = 0;
            for (int s = in.streamOffset[t]; s < in.streamOffset[t + 1]; s++) {
                if (!receipt(s)) {
                    continue;
                }
                if (claimer[s] == -1) {
                    free = grow(free, freeCount);
                    free[freeCount++] = s;
                } else if (withheld(s, assignee[s])) {
                    held = grow(held, heldCount);
                    held[heldCount++] = s;
                }
            }
            if (freeCount > 0 && heldCount > 0) {
                spread(free, freeCount, held, heldCount);
            }
        }
    }

    /**
     * Swaps free receipts of the most readable receivers with withheld receipts of the least readable ones, while
     * that narrows their gap and keeps rack locality.
     */
    private void spread(int[] free, int freeCount, int[] held, int heldCount) {
        boolean swapped = true;
        while (swapped) {
            swapped = false;
            int f = mostReadable(free, freeCount);
            int h = leastReadable(held, heldCount);
            int a = assignee[free[f]];
            int b = assignee[held[h]];
            if (readable[a] < readable[b] + 2) {
                return;
            }
            if (withheld(held[h], a) && keepsLocality(a, free[f], b, held[h])) {
                swap(free, f, held, h);
                swapped = true;
                continue;
            }
            // the extreme pair cannot swap (racks, or a claims the withheld shard): try every pair that narrows a
            // gap of 2 or more
            for (int i = 0; i < freeCount && !swapped; i++) {
                for (int j = 0; j < heldCount && !swapped; j++) {
                    int x = assignee[free[i]];
                    int y = assignee[held[j]];
                    if (readable[x] >= readable[y] + 2 && withheld(held[j], x)
                            && keepsLocality(x, free[i], y, held[j])) {
                        swap(free, i, held, j);
                        swapped = true;
                    }
                }
            }
        }
    }

    /** Member a gives free shard f to b and takes b's withheld shard h: a reads one fewer, b one more. */
    private void swap(int[] free, int f, int[] held, int h) {
        int a = assignee[free[f]];
        int b = assignee[held[h]];
        assignee[free[f]] = b;
        assignee[held[h]] = a;
        readable[a]--;
        readable[b]++;
        // b now holds the free shard and a the withheld one; the lists keep shard numbers, so nothing to update
    }

    private boolean keepsLocality(int a, int freeShard, int b, int heldShard) {
        if (!in.racks.enabled()) {
            return true;
        }
        int before = (in.racks.matches(a, freeShard) ? 1 : 0) + (in.racks.matches(b, heldShard) ? 1 : 0);
        int after = (in.racks.matches(b, freeShard) ? 1 : 0) + (in.racks.matches(a, heldShard) ? 1 : 0);
        return after >= before;
    }

    private int mostReadable(int[] shards, int count) {
        int best = 0;
        for (int i = 1; i < count; i++) {
            if (readable[assignee[shards[i]]] > readable[assignee[shards[best]]]) {
                best = i;
            }
        }
        return best;
    }

    private int leastReadable(int[] shards, int count) {
        int best = 0;
        for (int i = 1; i < count; i++) {
            if (readable[assignee[shards[i]]] < readable[assignee[shards[best]]]) {
                best = i;
            }
        }
        return best;
    }

    private static int[] grow(int[] a, int size) {
        return size < a.length ? a : Arrays.copyOf(a, a.length * 2);
    }
}
