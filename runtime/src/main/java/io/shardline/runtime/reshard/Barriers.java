package io.shardline.runtime.reshard;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The barriers of a chain of layouts (docs/protocol.md, "Resharding: the state machine and the barrier"): shard
 * {@code j} of epoch {@code e}'s layout ({@code m} shards after {@code n}) is released for a group once every parent
 * {@code p < n, p = j (mod gcd(n, m))} other than {@code j} itself was read and acknowledged by that group up to its
 * own cutover of {@code e}, and every parent passed its own barrier of the epoch before; a shard {@code j >= m} has no
 * record of epoch {@code e} and is released at once. {@code j} never waits for itself: its own records of earlier
 * epochs lie before its cutover, and a shard is read and handled in order. So a shard whose only parent is itself
 * (every {@code j < n} when {@code n} divides {@code m}, e.g. shards 0-15 of 16 -> 32) is released without waiting
 * for anything, before it is flipped, and its group never stops at its cutover. Epochs are released one after the
 * other. Pure, over an observed {@link Progress}; immutable.
 */
final class Barriers {

    private final TreeMap<Long, Integer> layouts;
    private final long epoch;
    private final int shards;

    /** The barriers of {@code layouts} (routing epoch to shard count, the stable one first). */
    Barriers(TreeMap<Long, Integer> layouts) {
        this.layouts = new TreeMap<>(layouts);
        this.epoch = layouts.lastKey();
        this.shards = layouts.lastEntry().getValue();
    }

    /** The highest shard count of the chain. */
    private int maxShards() {
        return layouts.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    /** The highest epoch of the chain up to which every barrier of {@code j} passed for {@code g}. */
    long releasable(Progress p, String g, int j) {
        long released = p.routing(j).released(g);
        for (long e : layouts.tailMap(layouts.firstKey(), false).keySet()) {
            if (e <= released) {
                continue;
            }
            if (!waitingFor(p, g, j, e).isEmpty()) {
                break;
            }
            released = e;
        }
        return released;
    }

    /**
     * The parents of {@code j} at epoch {@code e} that {@code g} has not drained to their cutover of {@code e} (or
     * whose barrier of the epoch before has not passed); never {@code j} itself, whose barrier of the epoch before
     * the caller has seen passed.
     */
    List<Integer> waitingFor(Progress p, String g, int j, long e) {
        int n = layouts.lowerEntry(e).getValue();
        int m = layouts.get(e);
        List<Integer> waiting = new ArrayList<>();
        if (j >= m) {
            return waiting;
        }
        long before = layouts.lowerKey(e);
        for (int parent : parents(j, n, m)) {
            if (parent == j) {
                continue; // read in order: its records before the cutover are handled before any after it
            }
            // A parent's own earlier barriers come first: drained to this cutover without them, it could have
            // skipped no record, but its earlier epochs' records of these keys would not be known handled.
            boolean earlier = before == layouts.firstKey() || p.routing(parent).released(g) >= before;
            if (!earlier || !drained(p, g, parent, e)) {
                waiting.add(parent);
            }
        }
        return waiting;
    }

    /** The shards the last layout leaves out that {@code g} has not drained to their last cutover. */
    List<Integer> undrained(Progress p, String g) {
        List<Integer> out = new ArrayList<>();
        for (int i = shards; i < maxShards(); i++) {
            if (!drained(p, g, i, epoch)) {
                out.add(i);
            }
        }
        return out;
    }

    private static boolean drained(Progress p, String g, int shard, long e) {
        return p.routing(shard).cutoverFor(e).map(cut -> "0-0".equals(cut)
                || p.position(g, shard).map(pos -> pos.drainedTo(cut)).orElse(false)).orElse(false);
    }

    /** The parents of shard {@code j} of an {@code m}-shard layout that follows an {@code n}-shard one. */
    static List<Integer> parents(int j, int n, int m) {
        int g = gcd(n, m);
        List<Integer> out = new ArrayList<>();
        for (int p = j % g; p < n; p += g) {
            out.add(p);
        }
        return out;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /**
     * What shard {@code j} waits for in group {@code g}: the next epoch of the chain not released there and the
     * parents not drained for it (empty list: it can be released), or empty when every barrier passed.
     */
    Optional<Map.Entry<Long, List<Integer>>> waits(Progress p, String g, int j) {
        long released = p.routing(j).released(g);
        for (long e : layouts.tailMap(layouts.firstKey(), false).keySet()) {
            if (e > released) {
                return Optional.of(Map.entry(e, waitingFor(p, g, j, e)));
            }
        }
        return Optional.empty();
    }
}
