package io.shardline.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The seeded sequence of faults of a run: which fault comes next, which worker it picks and how long the
 * cluster settles after it. Pure and deterministic: the same seed and kinds give the same plan, so a failing
 * seed replays (targets are picked by index among the live workers at run time).
 */
public final class FaultSchedule {

    /**
     * Relative weights: crashes are the most common, rolling restarts and Redis crashes the rarest; the reshardings
     * are not drawn (weight 0): {@code --reshards N} spreads N of them over the run.
     */
    private static final int[] WEIGHTS = {
        4, // KILL_WORKER
        2, // KILL_LEADER
        3, // PAUSE_WORKER
        1, // PAUSE_LEADER
        2, // RESTART_WORKER
        1, // ROLLING_RESTART
        1, // KILL_REDIS
        0, // RESHARD: scheduled by count (--reshards), see ChaosRun
        0, // RESHARD_ROLLBACK
    };

    /**
     * One planned fault.
     *
     * @param kind the fault
     * @param pick which worker among the candidates (taken modulo their number at run time)
     * @param settleMs how long to let the cluster settle after the fault ended, before the next one
     */
    public record Planned(FaultKind kind, int pick, long settleMs) {
    }

    private FaultSchedule() {
    }

    /**
     * Plans {@code count} faults drawn from {@code kinds}; each is followed by a settle time of
     * {@code minSettleMs} plus up to one more session timeout.
     */
    public static List<Planned> plan(long seed, Set<FaultKind> kinds, int count, long minSettleMs,
                                     long sessionTimeoutMs) {
        Random random = new Random(seed);
        List<FaultKind> pool = new ArrayList<>();
        for (FaultKind kind : FaultKind.values()) {
            if (kinds.contains(kind) && WEIGHTS[kind.ordinal()] > 0) {
                for (int i = 0; i < WEIGHTS[kind.ordinal()]; i++) {
                    pool.add(kind);
                }
            }
        }
        if (pool.isEmpty()) {
            return List.of();
        }
        List<Planned> plan = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            FaultKind kind = pool.get(random.nextInt(pool.size()));
            plan.add(new Planned(kind, random.nextInt(1 << 16), minSettleMs + (long) (random.nextDouble() * sessionTimeoutMs)));
        }
        return plan;
    }
}
