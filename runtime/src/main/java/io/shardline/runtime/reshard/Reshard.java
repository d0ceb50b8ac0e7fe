package io.shardline.runtime.reshard;

import io.shardline.runtime.topology.StreamSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The pure state machine of one stream's shard count (docs/protocol.md, "Resharding"): {@code STABLE ->
 * RESHARDING(n -> m, epoch E) -> STABLE}, a rollback ({@code ROLLING_BACK}: a new epoch whose layout is the count
 * before the change) in every state until the change completes, and a new change during a rollback. A running
 * change is a chain of layouts, one shard count per routing epoch, starting with the stable one; the machine is
 * rebuilt from that chain (the topology record) by a leader that takes over, and decides again from what it
 * observes ({@link Progress}); every decision is idempotent. No I/O, no clock, not thread-safe.
 *
 * <p>Shards of a new layout are released group by group by their barriers ({@link Barriers}). The change completes
 * when every group passed every barrier of the last epoch and drained every shard the last layout leaves out; those
 * are then retired.
 */
public final class Reshard {

    private final String stream;
    private final TreeMap<Long, Integer> layouts;
    private ReshardState state;
    private boolean completing;

    private Reshard(String stream, ReshardState state, SortedMap<Long, Integer> layouts, boolean completing) {
        this.stream = Objects.requireNonNull(stream, "stream");
        this.state = Objects.requireNonNull(state, "state");
        this.layouts = new TreeMap<>(layouts);
        this.completing = completing;
        if (this.layouts.isEmpty() || (state == ReshardState.STABLE) != (this.layouts.size() == 1)) {
            throw new IllegalArgumentException("stream '" + stream + "': state " + state + " with layouts " + layouts);
        }
    }

    /** A stable stream of {@code shards} shards under routing epoch {@code epoch}. */
    public static Reshard stable(String stream, long epoch, int shards) {
        return new Reshard(stream, ReshardState.STABLE, new TreeMap<>(Map.of(epoch, shards)), false);
    }

    /** This machine as it is now, to keep what was read before {@link #decide} changes it. */
    public Reshard copy() {
        return new Reshard(stream, state, layouts(), completing);
    }

    /** The machine a leader rebuilds from the topology record. */
    public static Reshard restore(String stream, ReshardState state, SortedMap<Long, Integer> layouts,
                                  boolean completing) {
        return new Reshard(stream, state, layouts, completing);
    }

    /**
     * Starts a change to {@code shards} (a new routing epoch). Allowed when stable or during a rollback.
     *
     * @throws ReshardRefusedException saying why when the count is bad, unchanged, or a change runs
     */
    public void start(int shards) {
        if (shards < 1 || shards > StreamSpec.MAX_SHARDS) {
            throw new ReshardRefusedException(ReshardRefusedException.Reason.BAD_COUNT, "shards: must be 1.."
                    + StreamSpec.MAX_SHARDS + ", was " + shards);
        }
        if (state == ReshardState.RESHARDING || completing) {
            throw new ReshardRefusedException(ReshardRefusedException.Reason.CONFLICT, "stream '" + stream
                    + "' is already changing from " + fromShards() + " to " + shards() + " shards (routing epoch "
                    + epoch() + (completing ? ", completing" : "") + "): wait until it is STABLE, or roll it back "
                    + "(bin/shardline streams rollback " + stream + ")");
        }
        if (shards == shards()) {
            throw new ReshardRefusedException(ReshardRefusedException.Reason.CONFLICT, "stream '" + stream
                    + "' has " + shards + " shards already (routing epoch " + epoch() + ")");
        }
        transitionTo(ReshardState.RESHARDING);
        layouts.put(epoch() + 1, shards);
    }

    /**
     * Rolls the running change back to the count before it (a new routing epoch).
     *
     * @throws ReshardRefusedException when nothing runs, a rollback runs already, or the change is completing
     */
    public void rollback() {
        if (state == ReshardState.STABLE || completing) {
            throw new ReshardRefusedException(ReshardRefusedException.Reason.CONFLICT, "stream '" + stream
                    + "' has no change to roll back (" + (completing ? "its change to " + shards()
                    + " shards is completing" : "it is STABLE with " + shards() + " shards") + "): change the count "
                    + "with bin/shardline streams reshard " + stream + " --shards N");
        }
        if (state == ReshardState.ROLLING_BACK) {
            throw new ReshardRefusedException(ReshardRefusedException.Reason.CONFLICT, "stream '" + stream
                    + "' is already rolling back to " + shards() + " shards (routing epoch " + epoch() + ")");
        }
        transitionTo(ReshardState.ROLLING_BACK);
        layouts.put(epoch() + 1, fromShards());
    }

    /**
     * What to do now given {@code p}, in order. Moves to {@code STABLE} when it returns {@link Decision.Complete}.
     */
    public List<Decision> decide(Progress p) {
        if (state == ReshardState.STABLE) {
            return List.of();
        }
        List<Decision> out = new ArrayList<>();
        if (!completing) {
            boolean settled = settle(p, out);
            if (!settled || !ready(p, out)) {
                return out;
            }
            completing = true;
            out.add(new Decision.Persist());
        }
        long e = epoch();
        int m = shards();
        p.groups().forEach((g, managed) -> {
            if (managed != m) {
                out.add(new Decision.Resize(g, m, state == ReshardState.ROLLING_BACK));
            }
        });
        for (int i = m; i < maxShards(); i++) {
            out.add(new Decision.Retire(i));
        }
        out.add(new Decision.Complete(e, m));
        transitionTo(ReshardState.STABLE);
        layouts.clear();
        layouts.put(e, m);
        completing = false;
        return out;
    }

    /**
     * Releases, flips, groups on new shards and growth; true when nothing but releases was left to do. Releases come
     * first: a shard that waits for no other shard is released before it is flipped, so its groups never stop at its
     * cutover ({@link Barriers}). A growth flips the shards producers write to one pass after the groups' shard sets
     * grew, once their members own the new shards ({@link #holdsCutover}).
     */
    private boolean settle(Progress p, List<Decision> out) {
        long e = epoch();
        int max = maxShards();
        Barriers barriers = barriers();
        for (String g : p.groups().keySet()) {
            for (int j = 0; j < max; j++) {
                long released = barriers.releasable(p, g, j);
                if (released > p.routing(j).released(g)) {
                    out.add(new Decision.Release(g, j, released));
                }
            }
        }
        int size = out.size();
        int routed = layouts.lowerEntry(e).getValue();
        boolean hold = holdsCutover(p, e, max, routed);
        for (int i = 0; i < max; i++) {
            if (p.routing(i).epoch() < e && (!hold || i >= routed)) {
                out.add(new Decision.Flip(i, e));
            }
        }
        p.groups().forEach((g, managed) -> {
            if (managed < max) {
                out.add(new Decision.Resize(g, max, state == ReshardState.ROLLING_BACK));
            }
            for (int j = fromShards(); j < max; j++) {
                if (p.position(g, j).isEmpty()) {
                    out.add(new Decision.CreateGroup(g, j));
                }
            }
        });
        return out.size() == size && !hold;
    }

    /**
     * Whether the flip of the shards producers route to before epoch {@code e} (the first {@code routed}) waits: while
     * a group's shard set has not grown to {@code max} or its members are still taking the grown set up, and no such
     * shard was flipped to {@code e} yet (by a producer of the new layout or an earlier pass). Then the new shards are
     * owned, their members reading up to the barrier, by the time their parents drain: a key's wait at the cutover is
     * its parents' drain and the release, not the rebalance that hands the new shards out. The shards the earlier
     * layout does not route to are flipped at once (no producer of that layout writes there).
     */
    private static boolean holdsCutover(Progress p, long e, int max, int routed) {
        boolean growing = max > routed && (!p.takingUp().isEmpty()
                || p.groups().values().stream().anyMatch(managed -> managed < max));
        if (!growing) {
            return false;
        }
        for (int i = 0; i < routed; i++) {
            if (p.routing(i).epoch() >= e) {
                return false;
            }
        }
        return true;
    }

    /** Whether every barrier of the last epoch passed (after {@code out}) and every left-out shard is drained. */
    private boolean ready(Progress p, List<Decision> out) {
        long e = epoch();
        Barriers barriers = barriers();
        for (String g : p.groups().keySet()) {
            for (int j = 0; j < shards(); j++) {
                if (barriers.releasable(p, g, j) < e) {
                    return false;
                }
            }
            if (!barriers.undrained(p, g).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** The shards the last layout leaves out that {@code g} has not drained to their last cutover. */
    public List<Integer> undrained(Progress p, String g) {
        return barriers().undrained(p, g);
    }

    /**
     * What shard {@code j} waits for in group {@code g}: the next epoch of the chain not released there and the
     * parents not drained for it (empty list: it can be released), or empty when every barrier passed.
     */
    public Optional<Map.Entry<Long, List<Integer>>> waits(Progress p, String g, int j) {
        return barriers().waits(p, g, j);
    }

    private Barriers barriers() {
        return new Barriers(layouts);
    }

    private void transitionTo(ReshardState next) {
        if (!next.previousValidStates().contains(state)) {
            throw new IllegalStateException("stream '" + stream + "': invalid transition " + state + " -> " + next);
        }
        state = next;
    }

    /** The state. */
    public ReshardState state() {
        return state;
    }

    /** Whether the change passed every barrier and is retiring shards and completing. */
    public boolean completing() {
        return completing;
    }

    /** The routing epoch producers use now. */
    public long epoch() {
        return layouts.lastKey();
    }

    /** The shard count producers use now. */
    public int shards() {
        return layouts.lastEntry().getValue();
    }

    /** The shard count before the running chain of changes (the stable one). */
    public int fromShards() {
        return layouts.firstEntry().getValue();
    }

    /** The highest shard count of the chain: every shard below it is involved. */
    public int maxShards() {
        return layouts.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
    }

    /** Routing epoch to shard count, from the stable epoch on. */
    public SortedMap<Long, Integer> layouts() {
        return new TreeMap<>(layouts);
    }

    /** The stream. */
    public String stream() {
        return stream;
    }
}
