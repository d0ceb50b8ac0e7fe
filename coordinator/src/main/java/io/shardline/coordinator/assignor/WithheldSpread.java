package io.shardline.coordinator.assignor;

import java.util.Arrays;

/**
 * The last pass of the unweighted sticky paths: spreads the shards that {@code cooperative-sticky} withholds
 * over their receivers, so that the first cooperative round is as even as it can be for the same moves.
 *
 * <p>A <em>receipt</em> is a shard given to a member that did not own it. It is withheld in the cooperative
 * round when another member claims it ({@link CooperativeStickyAssignor#withholdTransfers}), and readable at
 * once when nobody claims it (a free shard). Exchanging a free receipt of one receiver for a withheld receipt of
 * another (each subscribing to the other's stream) changes neither anybody's shard count nor the number of
 * moves; it only changes how many shards each receiver can read during the cooperative round. The balancers
 * choose receipts without looking (a new member could get only withheld shards and read nothing while another
 * gets only free ones, possibly of another stream), so this pass makes such exchanges, across streams, between a
 * receiver that reads 2 or more shards more than another one, while the exchange keeps the rack-local shard count.
 * Every exchange lowers the sum of squares of the readable counts, so the pass ends; a second phase then narrows
 * subscription classes ({@link #evenClasses}); the {@code sticky} result
 * changes only in which new shard a receiver gets, never in counts, moves or balance. Its work is bounded
 * ({@link #BUDGET} steps; past it the spread reached so far is kept). Not thread-safe; one per call.
 */
final class WithheldSpread {

    /** Steps (receipts looked at) after which the pass stops where it is: keeps huge tangled inputs fast. */
    static final long BUDGET = 20_000_000L;

    private final StickyInput in;
    private final int[] assignee;
    private final int[] owner;
    private final int[] claimer;
    /** Stream index per shard, made only when there is something to exchange. */
    private int[] streamOf;
    /** Shards each member can read in the cooperative round (its assignment minus what is withheld from it). */
    private final int[] readable;
    /** Per member: its free receipts, then its withheld ones (null for members without receipts). */
    private final int[][] free;
    private final int[] freeCount;
    private final int[][] held;
    private final int[] heldCount;
    private long steps;

    private WithheldSpread(StickyInput in, int[] assignee) {
        this.in = in;
        this.assignee = assignee;
        this.owner = in.owner();
        this.claimer = in.claimer();
        int n = in.memberCount();
        this.readable = new int[n];
        this.free = new int[n][];
        this.freeCount = new int[n];
        this.held = new int[n][];
        this.heldCount = new int[n];
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

    private void run() {
        for (int s = 0; s < assignee.length; s++) {
            int m = assignee[s];
            if (m < 0) {
                continue;
            }
            if (owner[s] == m) {
                readable[m]++;
            } else if (claimer[s] == -1) {
                readable[m]++;
                free[m] = add(free[m], freeCount[m]++, s);
            } else if (withheld(s, m)) {
                held[m] = add(held[m], heldCount[m]++, s);
            } else {
                readable[m]++;
            }
        }
        Integer[] givers = members(freeCount);
        Integer[] takers = members(heldCount);
        if (givers.length == 0 || takers.length == 0) {
            return;
        }
        streamOf = in.streamOfShard();
        boolean exchanged = true;
        while (exchanged && steps < BUDGET) {
            exchanged = false;
            Arrays.sort(givers, (x, y) -> Integer.compare(readable[y], readable[x]));
            Arrays.sort(takers, (x, y) -> Integer.compare(readable[x], readable[y]));
            for (int a : givers) {
                for (int b : takers) {
                    if (steps >= BUDGET || readable[a] < readable[b] + 2) {
                        break;
                    }
                    while (readable[a] >= readable[b] + 2 && exchange(a, b)) {
                        exchanged = true;
                    }
                }
            }
        }
        evenClasses();
    }

    /**
     * The second phase: exchanges between receivers that read one shard apart, in different subscription classes,
     * where that narrows the class of the lower one (its members read 2+ apart) without widening either's spread above
     * 1: the first round's spread per class of identical subscriptions (docs/assignors.md, "Parity with Kafka"). An
     * exchange that leaves the spreads as they are is made when it lowers the two classes' {@link #deficit} (one of
     * several members at the bottom reads more). Every exchange lowers the summed excess spread, or keeps it and
     * lowers the summed deficit, so the phase ends.
     */
    private void evenClasses() {
        SubscriptionClasses classes = new SubscriptionClasses(in.memberStreams, in.streamCount());
        int[] low = new int[classes.count()];
        int[] high = new int[classes.count()];
        boolean exchanged = true;
        while (exchanged && steps < BUDGET) {
            exchanged = false;
            Arrays.fill(low, Integer.MAX_VALUE);
            Arrays.fill(high, Integer.MIN_VALUE);
            for (int m = 0; m < readable.length; m++) {
                int c = classes.classOf[m];
                low[c] = Math.min(low[c], readable[m]);
                high[c] = Math.max(high[c], readable[m]);
            }
            steps += readable.length;
            for (int b : members(heldCount)) {
                int cb = classes.classOf[b];
                if (high[cb] - low[cb] < 2 || readable[b] != low[cb]) {
                    continue;
                }
                for (int a : members(freeCount)) {
                    int ca = classes.classOf[a];
                    if (steps >= BUDGET || ca == cb) {
                        continue;
                    }
                    int beforeA = excess(classes.members[ca]);
                    int beforeB = excess(classes.members[cb]);
                    long deficit = deficit(classes.members[ca]) + deficit(classes.members[cb]);
                    readable[a]--;
                    readable[b]++;
                    int afterA = excess(classes.members[ca]);
                    int afterB = excess(classes.members[cb]);
                    boolean narrower = afterA <= beforeA && afterB <= beforeB && (afterA + afterB < beforeA + beforeB
                            || deficit(classes.members[ca]) + deficit(classes.members[cb]) < deficit);
                    readable[a]++;
                    readable[b]--;
                    if (narrower && exchange(a, b)) {
                        exchanged = true;
                        break;
                    }
                }
            }
        }
    }

    /** The spread of readable counts in a class above 1 (0 when its members read at most one apart). */
    private int excess(int[] classMembers) {
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (int m : classMembers) {
            min = Math.min(min, readable[m]);
            max = Math.max(max, readable[m]);
        }
        steps += classMembers.length;
        return Math.max(0, max - min - 1);
    }

    /**
     * How far a class's members read below its most but one, summed: falls when one of several members at the bottom
     * of a class reads one more, before the class's spread does (docs/assignors.md, "cooperative-sticky").
     */
    private long deficit(int[] classMembers) {
        int max = Integer.MIN_VALUE;
        for (int m : classMembers) {
            max = Math.max(max, readable[m]);
        }
        long deficit = 0;
        for (int m : classMembers) {
            deficit += Math.max(0, max - 1 - readable[m]);
        }
        steps += 2L * classMembers.length;
        return deficit;
    }

    /** Members with at least one receipt of the kind counted. */
    private static Integer[] members(int[] count) {
        int n = 0;
        for (int c : count) {
            n += c > 0 ? 1 : 0;
        }
        Integer[] out = new Integer[n];
        n = 0;
        for (int m = 0; m < count.length; m++) {
            if (count[m] > 0) {
                out[n++] = m;
            }
        }
        return out;
    }

    /**
     * Gives a free receipt of {@code a} to {@code b} for one of {@code b}'s withheld receipts that is withheld
     * from {@code a} too, each in a stream the other reads; false when no such pair keeps rack locality.
     */
    private boolean exchange(int a, int b) {
        for (int i = 0; i < freeCount[a]; i++) {
            int f = free[a][i];
            steps++;
            if (!in.subscribes(b, streamOf[f])) {
                continue;
            }
            for (int j = 0; j < heldCount[b]; j++) {
                int h = held[b][j];
                steps++;
                if (withheld(h, a) && in.subscribes(a, streamOf[h]) && keepsLocality(in, a, f, b, h)) {
                    assignee[f] = b;
                    assignee[h] = a;
                    readable[a]--;
                    readable[b]++;
                    free[a][i] = free[a][--freeCount[a]];
                    held[b][j] = held[b][--heldCount[b]];
                    free[b] = add(free[b], freeCount[b]++, f);
                    held[a] = add(held[a], heldCount[a]++, h);
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * True when giving {@code aShard} (now {@code a}'s) to {@code b} and {@code bShard} (now {@code b}'s) to
     * {@code a} keeps at least as many shards on a member of their rack.
     */
    static boolean keepsLocality(StickyInput in, int a, int aShard, int b, int bShard) {
        if (!in.racks.enabled()) {
            return true;
        }
        int before = (in.racks.matches(a, aShard) ? 1 : 0) + (in.racks.matches(b, bShard) ? 1 : 0);
        int after = (in.racks.matches(b, aShard) ? 1 : 0) + (in.racks.matches(a, bShard) ? 1 : 0);
        return after >= before;
    }

    static int[] add(int[] list, int size, int shard) {
        int[] out = list == null ? new int[4] : size < list.length ? list : Arrays.copyOf(list, list.length * 2);
        out[size] = shard;
        return out;
    }
}
