package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.ShardDescriber;

/**
 * The {@code cooperative-sticky} assignor (Kafka's {@code CooperativeStickyAssignor}): the {@code sticky}
 * assignment minus every shard that would move from one live owner to another. Such a shard is withheld:
 * its current owner does not get it (so it revokes it) and its new owner does not get it yet; the next
 * rebalance, with the shard released, assigns it. Members keep reading everything they keep meanwhile.
 *
 * <p>A shard is withheld from member {@code X} when {@code X} is not its resolved previous owner and some
 * other member of the group claims it in its owned shards (any generation, including voided duplicate
 * claims). Run again on its own output (members own what they were given, revoked shards released), the
 * result equals the {@code sticky} result. Stateless and thread-safe.
 */
public final class CooperativeStickyAssignor implements Assignor {

    /** The name listeners select this assignor by. */
    public static final String NAME = "cooperative-sticky";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
        StickyInput in = StickyInput.of(group, shards);
        return fromSticky(in, StickyAssignor.assign(in));
    }

    /**
     * The answer to {@code in} given its {@code sticky} assignment ({@link StickyAssignor#assign(StickyInput)}, which
     * is changed): so that a caller that needs both answers to one input computes the sticky one once.
     */
    static GroupAssignment fromSticky(StickyInput in, int[] sticky) {
        withholdTransfers(in, sticky);
        return StickyResult.toGroupAssignment(in, sticky);
    }

    /** Removes shards whose previous live owner is another member; returns how many were withheld. */
    static int withholdTransfers(StickyInput in, int[] assignee) {
        int withheld = 0;
        if (!in.anyClaim()) {
            return withheld;
        }
        for (int s = 0; s < assignee.length; s++) {
            int x = assignee[s];
            if (x < 0 || in.owner()[s] == x) {
                continue;
            }
            int claim = in.claimer()[s];
            if (claim == StickyInput.MANY || claim >= 0 && claim != x) {
                assignee[s] = -1;
                withheld++;
            }
        }
        return withheld;
    }
}
