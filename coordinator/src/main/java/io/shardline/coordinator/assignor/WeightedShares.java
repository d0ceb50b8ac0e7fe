package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.MemberSubscription;
import java.util.Arrays;

/**
 * Shares of shards proportional to member weights ({@code member.weight}), by the largest-remainder (Hamilton)
 * method: member {@code i} of weight {@code w_i} among total weight {@code W} gets {@code floor(n * w_i / W)} shards,
 * and the shards left over go one each to the members with the largest remainders. Every share is within one
 * shard of {@code n * w_i / W} (the quota property that divisor methods lack). Among equal remainders the member
 * that {@code prefers} more comes first, then the lower index. Pure.
 */
final class WeightedShares {

    private WeightedShares() {
    }

    /** True when some member's weight differs from another's (otherwise the unweighted algorithms apply as they are). */
    static boolean weighted(MemberSubscription[] members) {
        for (MemberSubscription m : members) {
            if (m.weight() != members[0].weight()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The shares of {@code n} shards.
     *
     * @param weights the weights (>= 1) of the members, in member order
     * @param prefers per member, how many of the shards it owns (ties of the remainder go to the higher value)
     */
    static int[] of(int n, long[] weights, int[] prefers) {
        int k = weights.length;
        long total = 0;
        for (long w : weights) {
            total += w;
        }
        int[] share = new int[k];
        long[] remainder = new long[k];
        int given = 0;
        for (int i = 0; i < k; i++) {
            long exact = n * weights[i];
            share[i] = (int) (exact / total);
            remainder[i] = exact % total;
            given += share[i];
        }
        Integer[] order = new Integer[k];
        for (int i = 0; i < k; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> remainder[a] != remainder[b] ? Long.compare(remainder[b], remainder[a])
                : prefers[a] != prefers[b] ? Integer.compare(prefers[b], prefers[a]) : Integer.compare(a, b));
        for (int j = 0; j < n - given; j++) {
            share[order[j]]++;
        }
        return share;
    }
}
