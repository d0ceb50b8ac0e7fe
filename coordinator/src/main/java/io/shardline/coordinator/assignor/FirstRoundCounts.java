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
    /** Made once the pass has something to look at. */
    private SubscriptionClasses cls;
    private RoundMeasures current;
    private RoundMeasures trial;
    private long steps;

    private FirstRoundCounts(StickyInput in, int[] assignee) {
        this.in = in;
        this.assignee = assignee;
        this.owner = in.owner();
        this.streamOf = in.streamOfShard();
    }

    /** Applies the pass to {@code assignee} (member index per global shard) in place. */
    static void apply(StickyInput in, int[] assignee) {
        if (in.anyClaim()) {
            new FirstRoundCounts(in, assignee).run();
        }
    }

    private void run() {
        if (in.identicalSubscriptions() && !lightCanGain()) {
            return;
        }
        cls = new SubscriptionClasses(in.memberStreams, in.streamCount());
        current = new RoundMeasures(in, cls);
        trial = new RoundMeasures(in, cls);
        current.measure(assignee);
        steps += current.cost;
        while (steps < BUDGET && current.firstRoundUneven() && improveOnce()) {
            // each kept change makes the first round strictly better by a bounded measure, so this ends
        }
    }

    /**
     * Tries the steps by which a heavy member reads one shard less, each alone and followed by a step of the member
     * it raised; keeps the first change that improves. A first step that moves one shard more than before is only
     * followed by a shard going back to its previous owner, so moves never grow.
     */
    private boolean improveOnce() {
        int[] moved = movedShards();
        int[][] held = OwnedShards.byMember(assignee, in.memberCount());
        steps += assignee.length;
        for (int a = 0; a < in.memberCount(); a++) {
            if (!heavy(a)) {
                continue;
            }
            int[] first = steps(a, held[a], moved, FIRST);
            for (int i = 0; i < first.length && steps < BUDGET; i += 3) {
                int gained = first[i + 2];
                boolean extraMove = first[i + 1] >= 0 && gained != owner[first[i + 1]];
                int[] undo = apply(first[i], first[i + 1], gained);
                if (!extraMove && !raisesScore(a, gained) && kept()) {
                    return true;
                }
                int[] second = gained == a ? new int[0] : steps(gained, held[gained], moved,
                        extraMove ? RETURN : ANY);
                for (int j = 0; j < second.length && steps < BUDGET; j += 3) {
                    if (raisesScore(a, second[j + 2])) {
                        continue;
                    }
                    int[] undoSecond = apply(second[j], second[j + 1], second[j + 2]);
                    if (kept()) {
                        return true;
                    }
                    revert(undoSecond);
                }
                revert(undo);
            }
        }
        return exchangeOnce(moved);
    }

    /**
     * Tries exchanges of two receipts at the same counts: a shard nobody claims, read by its receiver at once, for
     * another receiver's withheld one; keeps the first that improves. {@link WithheldSpread} makes these where the two
     * read two or more apart; here also where that clears a stream or narrows a class otherwise.
     */
    private boolean exchangeOnce(int[] moved) {
        int[] claimer = in.claimer();
        for (int f : moved) {
            int a = assignee[f];
            if (a < 0 || claimer[f] != -1) {
                continue;
            }
            for (int h : moved) {
                int b = assignee[h];
                steps++;
                if (steps >= BUDGET) {
                    return false;
                }
                if (b < 0 || b == a || !current.withheld(h, b) || !current.withheld(h, a)
                        || !in.subscribes(b, streamOf[f]) || !in.subscribes(a, streamOf[h])) {
                    continue;
                }
                assignee[f] = b;
                assignee[h] = a;
                if (kept()) {
                    return true;
                }
                assignee[f] = a;
                assignee[h] = b;
            }
        }
        return false;
    }

    /**
     * With identical subscriptions (one class), whether a member reading two or more fewer than the most can read
     * more: only a shard nobody claims, or one given back to its previous owner, becomes readable by a step. False,
     * for example, when a new member joins owners of every shard: its shards are all withheld whoever gives them.
     */
    private boolean lightCanGain() {
        int[] readable = new int[in.memberCount()];
        int[] claimer = in.claimer();
        for (int s = 0; s < assignee.length; s++) {
            int m = assignee[s];
            if (m >= 0 && !withheld(s, m, claimer)) {
                readable[m]++;
            }
        }
        int hi = 0;
        for (int r : readable) {
            hi = Math.max(hi, r);
        }
        for (int s = 0; s < assignee.length; s++) {
            int m = assignee[s];
            if (m >= 0 && (claimer[s] == -1 && owner[s] != m
                    || owner[s] >= 0 && owner[s] != m && readable[owner[s]] <= hi - 2)) {
                return true;
            }
        }
        return false;
    }

    private boolean withheld(int shard, int member, int[] claimer) {
        int claim = claimer[shard];
        return claim != -1 && owner[shard] != member && claim != member;
    }

    /**
     * True when one shard less for {@code from} and one more for {@code to} raises Kafka's balance score (the sum of
     * pairwise count differences): when {@code to} holds as many or more; not worth measuring.
     */
    private boolean raisesScore(int from, int to) {
        return from != to && current.count[to] >= current.count[from];
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
     * True when {@code a} reads two or more shards more than another subscriber of a stream it reads in the first
     * round, or the most in a class whose members read two or more apart.
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
            if (current.firstUneven[t] && current.readable[a] >= current.minReadable[t] + 2) {
                return true;
            }
        }
        return false;
    }

    /** Shards given to a member other than their previous owner (or than nobody: new or unowned ones). */
    private int[] movedShards() {
        int n = 0;
        int[] out = new int[16];
        for (int s = 0; s < assignee.length; s++) {
            if (assignee[s] >= 0 && assignee[s] != owner[s]) {
                out = WithheldSpread.add(out, n++, s);
            }
        }
        steps += assignee.length;
        return java.util.Arrays.copyOf(out, n);
    }

    /** Steps that lower the member's readable count: a shard it reads goes to another member. */
    private static final int FIRST = 0;
    /** Steps that make no more moves: any received shard passed on, or a kept one for one given back. */
    private static final int ANY = 1;
    /** Steps that make one move less: a received shard given back to its previous owner. */
    private static final int RETURN = 2;

    /**
     * The steps by which {@code a} hands one of {@code shards} (those it held when the search started; it still
     * holds them, as a step never takes a shard from the member it raises) on, of the kind {@code mode} says, as triples: ({@code x},
     * {@code -1}, {@code b}) gives {@code a}'s received shard {@code x} to member {@code b}; ({@code y}, {@code x},
     * {@code d}) gives {@code a}'s kept shard {@code y} to the receiver of the moved shard {@code x}, which goes to
     * {@code d} instead: back to its previous owner, or (first steps only, one move more) on to another subscriber
     * of its stream, whose own step must then give a shard back.
     */
    private int[] steps(int a, int[] shards, int[] moved, int mode) {
        int n = 0;
        int[] out = new int[16];
        for (int s : shards) {
            if (assignee[s] != a || mode == FIRST && current.withheld(s, a)) {
                continue;
            }
            int t = streamOf[s];
            if (owner[s] != a) {
                for (int b = 0; b < in.memberCount(); b++) {
                    if (b != a && in.subscribes(b, t) && (mode != RETURN || b == owner[s])) {
                        out = triple(out, n, s, -1, b);
                        n += 3;
                    }
                }
                continue;
            }
            if (mode == RETURN) {
                continue;
            }
            for (int x : moved) {
                int r = assignee[x];
                if (x == s || r == a || r == owner[x] || !in.subscribes(r, t)) {
                    continue;
                }
                for (int d = 0; d < in.memberCount(); d++) {
                    boolean back = d == owner[x];
                    if (d != r && in.subscribes(d, streamOf[x]) && (back || mode == FIRST && d != a)) {
                        out = triple(out, n, s, x, d);
                        n += 3;
                    }
                }
            }
        }
        steps += shards.length + n;
        return java.util.Arrays.copyOf(out, n);
    }

    private static int[] triple(int[] out, int n, int s, int x, int d) {
        int[] grown = n + 3 <= out.length ? out : java.util.Arrays.copyOf(out, Math.max(out.length * 2, n + 3));
        grown[n] = s;
        grown[n + 1] = x;
        grown[n + 2] = d;
        return grown;
    }

    /** Applies a step; returns what {@link #revert} needs to undo it. */
    private int[] apply(int s, int x, int d) {
        if (x < 0) {
            int[] undo = {s, assignee[s], -1, -1};
            assignee[s] = d;
            return undo;
        }
        int[] undo = {s, assignee[s], x, assignee[x]};
        assignee[s] = assignee[x];
        assignee[x] = d;
        return undo;
    }

    private void revert(int[] undo) {
        assignee[undo[0]] = undo[1];
        if (undo[2] >= 0) {
            assignee[undo[2]] = undo[3];
        }
    }
}
