package io.shardline.coordinator.assignor;

import java.util.Arrays;

/**
 * The pass after {@link WithheldSpread}: chooses which of its owned shards a member gives up, so that the first
 * {@code cooperative-sticky} round leaves as few streams uneven as it can (docs/assignors.md, "cooperative-sticky").
 *
 * <p>In the first round a receiver does not read the shards withheld from it, so it may hold two or more shards
 * fewer than a member that reads a shard of one of its streams: that stream is <em>uneven</em> (a shard of it could
 * move to a subscriber holding 2+ fewer). A member that gives shards up (a <em>giver</em>) keeps some owned shards
 * and hands over others; which ones changes no count and no move, only which streams it reads. The pass takes the
 * streams uneven in the first round one at a time and tries to clear each: every shard of the stream read by a
 * member too heavy for it is exchanged with a shard of another stream that the same member gives up (the receiver
 * of that one reads the stream too and gets this shard instead, withheld as before). A stream is cleared only
 * when all its heavy holders can do so (else nothing of it changes), and an exchange never makes another stream
 * uneven, in the first round or in the converged assignment, nor loses a rack-local shard; so the number of
 * uneven first-round streams only falls, and counts, moves and the converged balance stay as they were. Its work
 * is bounded ({@link #BUDGET} steps). Not thread-safe; one per call.
 */
final class WithheldStreams {

    /** Steps (shards looked at) after which the pass stops where it is. */
    static final long BUDGET = 20_000_000L;

    private final StickyInput in;
    private final int[] assignee;
    private final int[] owner;
    private final int[] claimer;
    private final int[] streamOf;
    /** Per member: shards it reads in the first round, and shards in the converged (target) assignment. */
    private final int[] firstCount;
    private final int[] targetCount;
    /** Per stream: the fewest shards a subscriber reads in the first round / holds in the target. */
    private final int[] firstMin;
    private final int[] targetMin;
    /** Per stream: shards of it held by a member 2+ above the stream's minimum (first round / target). */
    private final int[] firstBad;
    private final int[] targetBad;
    /** Per giver: owned shards given to another member (null for members giving nothing). */
    private final int[][] given;
    private final int[] givenCount;
    private long steps;

    private WithheldStreams(StickyInput in, int[] assignee) {
        this.in = in;
        this.assignee = assignee;
        this.owner = in.owner();
        this.claimer = in.claimer();
        this.streamOf = in.streamOfShard();
        int n = in.memberCount();
        int streams = in.streamCount();
        this.firstCount = new int[n];
        this.targetCount = new int[n];
        this.firstMin = new int[streams];
        this.targetMin = new int[streams];
        this.firstBad = new int[streams];
        this.targetBad = new int[streams];
        this.given = new int[n][];
        this.givenCount = new int[n];
    }

    /** Applies the pass to {@code assignee} (member index per global shard) in place. */
    static void apply(StickyInput in, int[] assignee) {
        if (in.anyClaim()) {
            new WithheldStreams(in, assignee).run();
        }
    }

    private boolean withheld(int shard, int member) {
        int claim = claimer[shard];
        return claim != -1 && owner[shard] != member && claim != member;
    }

    private boolean firstHeavy(int member, int stream) {
        return firstCount[member] >= firstMin[stream] + 2;
    }

    private boolean targetHeavy(int member, int stream) {
        return targetCount[member] >= targetMin[stream] + 2;
    }

    private void run() {
        boolean anyGiven = false;
        for (int s = 0; s < assignee.length; s++) {
            int m = assignee[s];
            if (m >= 0) {
                targetCount[m]++;
                firstCount[m] += withheld(s, m) ? 0 : 1;
            }
            int o = owner[s];
            if (o >= 0 && m != o && m >= 0) {
                given[o] = WithheldSpread.add(given[o], givenCount[o]++, s);
                anyGiven = true;
            }
        }
        if (!anyGiven) {
            return;
        }
        Arrays.fill(firstMin, Integer.MAX_VALUE);
        Arrays.fill(targetMin, Integer.MAX_VALUE);
        if (in.identicalSubscriptions()) {
            // every member subscribes to every stream: one minimum for all
            Arrays.fill(firstMin, Arrays.stream(firstCount).min().orElse(0));
            Arrays.fill(targetMin, Arrays.stream(targetCount).min().orElse(0));
        } else {
            for (int m = 0; m < in.memberCount(); m++) {
                for (int t : in.memberStreams[m]) {
                    firstMin[t] = Math.min(firstMin[t], firstCount[m]);
                    targetMin[t] = Math.min(targetMin[t], targetCount[m]);
                }
            }
        }
        for (int s = 0; s < assignee.length; s++) {
            int m = assignee[s];
            if (m >= 0) {
                int t = streamOf[s];
                firstBad[t] += !withheld(s, m) && firstHeavy(m, t) ? 1 : 0;
                targetBad[t] += targetHeavy(m, t) ? 1 : 0;
            }
        }
        int[] log = new int[16];
        for (int t = 0; t < in.streamCount() && steps < BUDGET; t++) {
            if (firstBad[t] > 0) {
                log = clear(t, log);
            }
        }
    }

    /** Tries to clear stream {@code t}; undoes its exchanges when some heavy holder cannot. Returns the log array. */
    private int[] clear(int t, int[] log) {
        int logged = 0;
        for (int x = in.streamOffset[t]; x < in.streamOffset[t + 1] && firstBad[t] > 0; x++) {
            int a = assignee[x];
            steps++;
            if (a < 0 || withheld(x, a) || !firstHeavy(a, t)) {
                continue;
            }
            int y = owner[x] == a ? partner(a, x, t) : -1;
            if (y < 0 || steps >= BUDGET) {
                for (int i = logged - 2; i >= 0; i -= 2) {
                    exchange(log[i + 1], log[i]);
                }
                return log;
            }
            if (logged + 2 > log.length) {
                log = Arrays.copyOf(log, log.length * 2);
            }
            log[logged++] = x;
            log[logged++] = y;
            exchange(x, y);
        }
        return log;
    }

    /**
     * A shard {@code y} that {@code a} gives up, of another stream, whose receiver reads {@code t} and may get
     * {@code x} instead without making a stream uneven or losing rack locality; -1 when none.
     */
    private int partner(int a, int x, int t) {
        for (int i = 0; i < givenCount[a]; i++) {
            int y = given[a][i];
            steps++;
            int u = streamOf[y];
            int r = assignee[y];
            if (u == t || !in.subscribes(r, t) || !withheld(x, r) || firstBad[u] == 0 && firstHeavy(a, u)) {
                continue;
            }
            int bT = targetBad[t] - (targetHeavy(a, t) ? 1 : 0) + (targetHeavy(r, t) ? 1 : 0);
            int bU = targetBad[u] - (targetHeavy(r, u) ? 1 : 0) + (targetHeavy(a, u) ? 1 : 0);
            if (targetBad[t] == 0 && bT > 0 || targetBad[u] == 0 && bU > 0
                    || !WithheldSpread.keepsLocality(in, a, x, r, y)) {
                continue;
            }
            return y;
        }
        return -1;
    }

    /**
     * Swaps owned shard {@code x}, kept by its owner, with {@code y}, given by the same owner to a receiver: the
     * owner keeps {@code y} and the receiver gets {@code x}. Applied to ({@code y}, {@code x}) it undoes itself.
     */
    private void exchange(int x, int y) {
        int a = assignee[x];
        int r = assignee[y];
        int t = streamOf[x];
        int u = streamOf[y];
        // the owner stops reading x and reads y; the receiver read neither (both withheld from it)
        firstBad[t] -= firstHeavy(a, t) ? 1 : 0;
        firstBad[u] += firstHeavy(a, u) ? 1 : 0;
        targetBad[t] += (targetHeavy(r, t) ? 1 : 0) - (targetHeavy(a, t) ? 1 : 0);
        targetBad[u] += (targetHeavy(a, u) ? 1 : 0) - (targetHeavy(r, u) ? 1 : 0);
        assignee[x] = r;
        assignee[y] = a;
        for (int i = 0; i < givenCount[a]; i++) {
            if (given[a][i] == y) {
                given[a][i] = x;
                break;
            }
        }
    }
}
