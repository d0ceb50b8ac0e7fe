package io.shardline.coordinator.assignor;

import java.util.Arrays;

/**
 * The sticky assignment when subscriptions differ: near-linear in shards, members and subscriptions.
 *
 * <ol>
 *   <li>Group members into {@link SubscriptionClasses} and count the owned shards per class and stream.</li>
 *   <li>{@link ClassBalancer}: decide how many shards of each stream each class gets (optimal balance,
 *       owned shards stay in their class where balance allows).</li>
 *   <li>Inside each class (members there can take the same shards): the members owning the most get the
 *       {@code ceil} targets; each member keeps owned shards up to its target and its class's budget for the
 *       stream (rack-matching ones first); every other shard goes to a class with budget left for its
 *       stream, and each class fills its members up to target, rack-matching first, then round-robin in
 *       member id order.</li>
 *   <li>{@link MoveReducer} gives moved shards back where two counts can simply swap, then {@link MoveCycles}
 *       cancels every remaining cycle of hand-overs that saves a move at the same counts: no equally balanced
 *       assignment moves fewer shards.</li>
 * </ol>
 * Not thread-safe; one per call.
 */
final class GeneralAssignmentBuilder {

    /** Bound on the steps of {@link ClassBalancer#exchange}: keeps the path near-linear on huge inputs. */
    private static final long EXCHANGE_WORK_LIMIT = 20_000_000L;

    private final StickyInput in;
    private final SubscriptionClasses cls;
    private final int[] assignee;
    private final int[] count;
    private final int[] target;
    /** Shards per class and stream position decided by the {@link ClassBalancer}. */
    private int[][] budget0;

    GeneralAssignmentBuilder(StickyInput in) {
        this.in = in;
        this.cls = new SubscriptionClasses(in.memberStreams, in.streamCount());
        this.assignee = new int[in.shardCount()];
        Arrays.fill(assignee, -1);
        this.count = new int[in.memberCount()];
        this.target = new int[in.memberCount()];
    }

    /** Computes the assignment: member index per global shard (-1 for shards of streams nobody reads). */
    int[] build() {
        ClassBalancer balancer = balanceClasses();
        int[][] budget = new int[cls.count()][];
        for (int c = 0; c < budget.length; c++) {
            budget[c] = balancer.held[c].clone();
        }
        budget0 = balancer.held;
        int[][] owned = OwnedShards.byMember(in.owner(), in.memberCount());
        setTargets(balancer.load, owned);
        keepOwned(owned, budget, balancer.owned);
        int[] classOfShard = new int[in.shardCount()];
        Arrays.fill(classOfShard, -1);
        handOutPool(budget, classOfShard);
        fillClasses(classOfShard);
        MoveReducer.giveBack(in, cls, assignee, EXCHANGE_WORK_LIMIT);
        MoveCycles.minimise(in, assignee, EXCHANGE_WORK_LIMIT);
        return assignee;
    }

    private ClassBalancer balanceClasses() {
        int k = cls.count();
        int[][] owned = new int[k][];
        for (int c = 0; c < k; c++) {
            owned[c] = new int[cls.streams[c].length];
        }
        int[] free = new int[in.streamCount()];
        for (int t = 0; t < free.length; t++) {
            free[t] = in.streamOffset[t + 1] - in.streamOffset[t];
        }
        int[] perMember = new int[in.memberCount()];
        for (int s = 0; s < in.owner().length; s++) {
            int m = in.owner()[s];
            if (m >= 0) {
                int c = cls.classOf[m];
                int t = in.streamOfShard()[s];
                owned[c][cls.position(c, t)]++;
                free[t]--;
                perMember[m]++;
            }
        }
        int[][] memberOwned = new int[k][];
        for (int c = 0; c < k; c++) {
            int[] members = cls.members[c];
            memberOwned[c] = new int[members.length];
            for (int i = 0; i < members.length; i++) {
                memberOwned[c][i] = perMember[members[i]];
            }
            Arrays.sort(memberOwned[c]);
        }
        ClassBalancer balancer = new ClassBalancer(cls, owned, memberOwned);
        balancer.placeFree(free);
        balancer.improve();
        balancer.exchange(EXCHANGE_WORK_LIMIT);
        balancer.reduceMoves(EXCHANGE_WORK_LIMIT);
        return balancer;
    }

    /** Per class: floor or ceil of load / members; ceil goes to the members owning the most. */
    private void setTargets(long[] load, int[][] owned) {
        for (int c = 0; c < cls.count(); c++) {
            int[] members = cls.members[c];
            int q = (int) (load[c] / members.length);
            int r = (int) (load[c] % members.length);
            long[] order = new long[members.length];
            for (int i = 0; i < members.length; i++) {
                order[i] = (long) (Integer.MAX_VALUE - owned[members[i]].length) << 32 | members[i];
            }
            Arrays.sort(order);
            for (int i = 0; i < order.length; i++) {
                target[(int) order[i]] = i < r ? q + 1 : q;
            }
        }
    }

    /**
     * Each member keeps owned shards up to its target while its class's budget for the stream lasts
     * (rack-matching ones first). Members that keep everything go first, and everyone keeps shards of
     * uncontested streams (budget at least what the class owned) before contested ones, so that members
     * over their target give up shards of the streams whose budget is short.
     */
    private void keepOwned(int[][] owned, int[][] budget, int[][] classOwned) {
        for (int pass = 0; pass < 2; pass++) {
            for (int m = 0; m < owned.length; m++) {
                boolean surplus = owned[m].length > target[m];
                if (surplus != (pass == 1)) {
                    continue;
                }
                int c = cls.classOf[m];
                for (int contested = 0; contested < 2; contested++) {
                    for (int rack = in.racks.enabled() ? 0 : 1; rack < 2; rack++) {
                        for (int s : owned[m]) {
                            int j = cls.position(c, in.streamOfShard()[s]);
                            boolean isContested = classOwned[c][j] > budget0[c][j];
                            if (isContested == (contested == 1) && (rack == 1 || in.racks.matches(m, s))) {
                                maybeKeep(s, m, c, j, budget);
                            }
                        }
                    }
                }
            }
        }
    }

    private void maybeKeep(int s, int m, int c, int j, int[][] budget) {
        if (assignee[s] != -1 || count[m] >= target[m]) {
            return;
        }
        if (budget[c][j] > 0) {
            budget[c][j]--;
            give(s, m);
        }
    }

    /** Shards nobody kept or claimed go to the classes with budget left for their stream. */
    private void handOutPool(int[][] budget, int[] classOfShard) {
        for (int t = 0; t < in.streamCount(); t++) {
            int[] classes = cls.streamClasses[t];
            int[] positions = cls.streamPositions[t];
            int k = 0;
            for (int s = in.streamOffset[t]; s < in.streamOffset[t + 1]; s++) {
                if (assignee[s] != -1) {
                    continue;
                }
                while (k < classes.length && budget[classes[k]][positions[k]] == 0) {
                    k++;
                }
                if (k == classes.length) {
                    throw new IllegalStateException("sticky: no class has room for stream " + in.streams[t]);
                }
                budget[classes[k]][positions[k]]--;
                classOfShard[s] = classes[k];
            }
        }
    }

    /** Each class fills its members up to their targets: rack-matching first, then round-robin. */
    private void fillClasses(int[] classOfShard) {
        int[][] byClass = OwnedShards.byMember(classOfShard, cls.count());
        int[] perRack = in.racks.enabled() ? RackOrder.membersPerRack(in.racks, in.memberCount()) : null;
        for (int c = 0; c < byClass.length; c++) {
            int[] shards = byClass[c];
            if (shards.length == 0) {
                continue;
            }
            int[] members = cls.members[c];
            if (in.racks.enabled()) {
                shards = RackOrder.byMatchingMembers(shards, in.racks, perRack);
                RackQueues queues = new RackQueues(in.racks, members, members.length);
                for (int i = 0; i < shards.length; i++) {
                    int m = queues.take(in.racks.shardRacks(shards[i]), x -> count[x] < target[x]);
                    if (m >= 0) {
                        give(shards[i], m);
                    }
                }
            }
            int cursor = 0;
            for (int s : shards) {
                if (assignee[s] != -1) {
                    continue;
                }
                int guard = 0;
                while (count[members[cursor]] >= target[members[cursor]]) {
                    cursor = (cursor + 1) % members.length;
                    if (++guard > members.length) {
                        throw new IllegalStateException("sticky: class of member "
                                + in.members[members[0]].memberId() + " has more shards than room");
                    }
                }
                give(s, members[cursor]);
                cursor = (cursor + 1) % members.length;
            }
        }
    }

    private void give(int shard, int member) {
        assignee[shard] = member;
        count[member]++;
    }
}
