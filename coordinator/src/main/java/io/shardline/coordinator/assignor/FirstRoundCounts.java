package io.shardline.coordinator.assignor;

/**
 * The last pass of the sticky paths for different subscriptions: among converged assignments that are equally
 * balanced and make the same moves, chooses one whose first {@code cooperative-sticky} round is more even
 * (docs/assignors.md, "cooperative-sticky"). {@link WithheldSpread} and {@link WithheldStreams} change only which
 * shards members get; this pass changes <em>who</em> holds the extra shard where two members' counts can swap: a
 * member that reads two or more shards more than another subscriber of one of its streams hands a shard on (a shard
 * it received goes to another subscriber; or it gives up a shard it kept, and the member that gave a shard to the
 * same receiver keeps that one instead), directly or along a second such step, so that a receiver waiting for
 * withheld shards reads more in the first round and the heavy reader less.
 *
 * <p>A change is kept only when it makes no measure of {@link RoundMeasures} worse, converged or first round (class
 * spreads, uneven streams, Kafka's balance score, largest minus smallest count, moves, rack-local shards), and makes
 * the first round better by one; so the converged assignment stays as balanced, with as few moves, as before. Its
 * work is bounded ({@link #BUDGET} steps, each measure counting the shards and subscriptions it reads). Not
 * thread-safe; one per call.
 */
final class FirstRoundCounts {

    /** Steps after which the pass stops where it is. */
    static final long BUDGET = 4_000_000L;

    private final StickyInput in;
    private final int[] assignee;
    private final int[] owner;
    private final int[] streamOf;
    private final SubscriptionClasses cls;
    private final RoundMeasures current;
    private final RoundMeasures trial;
    private long steps;

    private FirstRoundCounts(StickyInput in, int[] assignee) {
        this.in = in;
        this.assignee = assignee;
        this.owner = in.owner();
        this.streamOf = in.streamOfShard();
        this.cls = new SubscriptionClasses(in.memberStreams, in.streamCount());
        this.current = new RoundMeasures(in, cls);
        this.trial = new RoundMeasures(in, cls);
    }

    /** Applies the pass to {@code assignee} (member index per global shard) in place. */
    static void apply(StickyInput in, int[] assignee) {
        if (in.anyClaim() && !in.identicalSubscriptions()) {
            new FirstRoundCounts(in, assignee).run();
        }
    }

    private void run() {
        current.measure(assignee);
        steps += current.cost;
        while (steps < BUDGET && current.firstRoundUneven() && improveOnce()) {
            // each kept change makes the first round strictly better by a bounded measure, so this ends
        }
    }

    /** Tries the steps from every heavy member, and pairs of steps; keeps the first that improves. */
    private boolean improveOnce() {
        int[] moved = movedShards();
        for (int a = 0; a < in.memberCount(); a++) {
            if (!heavy(a)) {
                continue;
            }
            int[] first = steps(a, moved);
            for (int i = 0; i < first.length && steps < BUDGET; i += 2) {
                int gained = gainer(first[i], first[i + 1]);
                int[] undo = apply(first[i], first[i + 1]);
                if (kept()) {
                    return true;
                }
                int[] second = gained == a ? new int[0] : steps(gained, movedShards());
                for (int j = 0; j < second.length && steps < BUDGET; j += 2) {
                    int[] undoSecond = apply(second[j], second[j + 1]);
                    if (kept()) {
                        return true;
                    }
                    revert(undoSecond);
                }
                revert(undo);
            }
        }
        return false;
    }

    /** Measures the assignment as it is now; makes it current when it improves on the current one. */
    private boolean kept() {
        trial.measure(assignee);
        steps += trial.cost;
        if (trial.improves(current)) {
            current.copyFrom(trial);
            return true;
        }
        return false;
    }

    /**
     * True when {@code a} reads a shard of a stream uneven in the first round, or reads the most in a class whose
     * members read two or more apart.
     */
    private boolean heavy(int a) {
        int c = cls.classOf[a];
        if (current.excess[c] > 0) {
            int hi = Integer.MIN_VALUE;
            for (int m : cls.members[c]) {
                hi = Math.max(hi, current.readable[m]);
            }
            if (current.readable[a] == hi) {
                return true;
            }
        }
        for (int t : in.memberStreams[a]) {
            if (current.firstUneven[t]) {
                return true;
            }
        }
        return false;
    }

    /** Shards given to a member other than their previous owner. */
    private int[] movedShards() {
        int n = 0;
        int[] out = new int[16];
        for (int s = 0; s < assignee.length; s++) {
            if (owner[s] >= 0 && assignee[s] >= 0 && assignee[s] != owner[s]) {
                out = WithheldSpread.add(out, n++, s);
            }
        }
        steps += assignee.length;
        return java.util.Arrays.copyOf(out, n);
    }

    /**
     * The steps by which {@code a} hands a shard on, as pairs: ({@code x}, {@code -1 - b}) gives {@code a}'s received
     * shard {@code x} to member {@code b}; ({@code y}, {@code x}) gives {@code a}'s kept shard {@code y} to the
     * receiver of the moved shard {@code x}, which goes back to its previous owner.
     */
    private int[] steps(int a, int[] moved) {
        int n = 0;
        int[] out = new int[16];
        for (int s = 0; s < assignee.length; s++) {
            if (assignee[s] != a) {
                continue;
            }
            int t = streamOf[s];
            if (owner[s] != a) {
                for (int b = 0; b < in.memberCount(); b++) {
                    if (b != a && in.subscribes(b, t)) {
                        out = WithheldSpread.add(out, n++, s);
                        out = WithheldSpread.add(out, n++, -1 - b);
                    }
                }
            } else {
                for (int x : moved) {
                    int r = assignee[x];
                    if (x != s && r != a && in.subscribes(r, t) && in.subscribes(owner[x], streamOf[x])) {
                        out = WithheldSpread.add(out, n++, s);
                        out = WithheldSpread.add(out, n++, x);
                    }
                }
            }
        }
        steps += assignee.length + n;
        return java.util.Arrays.copyOf(out, n);
    }

    /** The member whose count a step raises. */
    private int gainer(int s, int target) {
        return target < 0 ? -1 - target : owner[target];
    }

    /** Applies a step; returns what {@link #revert} needs to undo it. */
    private int[] apply(int s, int target) {
        if (target < 0) {
            int[] undo = {s, assignee[s], -1, -1};
            assignee[s] = -1 - target;
            return undo;
        }
        int[] undo = {s, assignee[s], target, assignee[target]};
        assignee[s] = assignee[target];
        assignee[target] = owner[target];
        return undo;
    }

    private void revert(int[] undo) {
        assignee[undo[0]] = undo[1];
        if (undo[2] >= 0) {
            assignee[undo[2]] = undo[3];
        }
    }
}
