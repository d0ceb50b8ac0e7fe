package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.ShardDescriber;

/**
 * The {@code sticky} assignor: balance first, then as few moves as possible, rack-aware where racks allow
 * (Kafka's {@code StickyAssignor}, seeds 000 and 001).
 *
 * <ul>
 *   <li>Every shard of a subscribed stream goes to exactly one subscriber.</li>
 *   <li>Members with identical subscriptions end with shard counts that differ by at most one; overall the
 *       balance is optimal for the subscriptions (no shard chain can move load from a member to one with
 *       two or more fewer shards), so never worse than Kafka's.</li>
 *   <li>Previously owned shards stay with their owner unless balance needs them elsewhere, and no equally
 *       balanced assignment moves fewer shards (so never more than Kafka's at equal balance); a shard claimed
 *       by several members goes to the unique claimant with the highest generation, and a tie voids it.</li>
 *   <li>A member's rack is matched with the racks of new shards where that costs no balance and no move;
 *       unlike Kafka, an owned shard is never moved only to improve rack locality.</li>
 * </ul>
 * Identical subscriptions take the {@link ConstrainedAssignmentBuilder}, others the near-linear
 * {@link GeneralAssignmentBuilder}; members of different weights the {@link WeightedStickyBuilder} (shares
 * proportional to weight); on the unweighted paths three last passes, {@link WithheldSpread} (which receiver gets
 * which new shard, across streams), {@link WithheldStreams} (which owned shards a giver gives up) and
 * {@link FirstRoundCounts} (which member holds the extra shard where counts can swap), make
 * {@code cooperative-sticky}'s first round more even (same balance and moves). Members are ordered by member id, so
 * the result does not depend on the
 * order of the input. Stateless and thread-safe.
 */
public final class StickyAssignor implements Assignor {

    /** The name listeners select this assignor by. */
    public static final String NAME = "sticky";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
        StickyInput in = StickyInput.of(group, shards);
        return StickyResult.toGroupAssignment(in, assign(in));
    }

    /** The sticky assignment in array form: member index per global shard, -1 for unread shards. */
    static int[] assign(StickyInput in) {
        return assign(in, true);
    }

    /**
     * {@link #assign(StickyInput)}, with its last pass ({@link FirstRoundCounts}) only when {@code firstRoundPass}:
     * without it the answer is as balanced and moves as few shards (the pass only chooses among such answers), which
     * is all that tests building earlier rounds of a group's history need.
     */
    static int[] assign(StickyInput in, boolean firstRoundPass) {
        if (in.memberCount() == 0 || in.shardCount() == 0) {
            int[] none = new int[in.shardCount()];
            java.util.Arrays.fill(none, -1);
            return none;
        }
        if (WeightedShares.weighted(in.members)) {
            return new WeightedStickyBuilder(in).build();
        }
        int[] assignee = in.identicalSubscriptions()
                ? new ConstrainedAssignmentBuilder(in).build()
                : new GeneralAssignmentBuilder(in).build();
        WithheldSpread.apply(in, assignee);
        WithheldStreams.apply(in, assignee);
        if (firstRoundPass) {
            FirstRoundCounts.apply(in, assignee);
        }
        return assignee;
    }
}
