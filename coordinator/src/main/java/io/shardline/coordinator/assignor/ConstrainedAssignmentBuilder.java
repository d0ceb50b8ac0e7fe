package io.shardline.coordinator.assignor;

import java.util.Arrays;

/**
 * The sticky assignment when every member subscribes to the same streams (docs/assignors.md, "sticky"; Kafka's
 * {@code ConstrainedAssignmentBuilder}): with {@code P} shards and {@code N} members, every member ends with
 * {@code floor = P / N} or {@code ceil = ceil(P / N)} shards, keeping as many previously owned shards as that
 * allows.
 *
 * <ol>
 *   <li>Keep owned shards: a member owning fewer than {@code floor} keeps them all and is unfilled; one
 *       owning exactly {@code floor} keeps them; one owning more keeps {@code ceil} (rack-matching ones first)
 *       and joins the max-capacity queue.</li>
 *   <li>Fill unfilled members up to {@code floor}, round-robin in member id order over the unassigned shards
 *       in stream then shard order; when racks allow, a first pass gives each shard to an unfilled member on
 *       one of its racks (shards with the fewest rack-matching members first).</li>
 *   <li>Steal: if shards run out while members are still under {@code floor} (more members kept {@code ceil}
 *       than the remainder allows), take one shard from each max-capacity member in turn.</li>
 *   <li>Distribute what remains, one shard each, to members at {@code floor} in the order they reached it
 *       (rack-matching ones first), which brings them to {@code ceil}.</li>
 * </ol>
 * Linear in shards plus members (the rack pass adds a sort). Not thread-safe; one per call.
 */
final class ConstrainedAssignmentBuilder {

    private final StickyInput in;
    private final int[] assignee;
    private final int[] count;
    private final int floor;
    private final int ceil;
    /** Members at exactly floor that may still take one more, in the order they reached floor. */
    private final int[] atFloor;
    private int atFloorSize;
    /** Members that kept ceil owned shards, in member order (steal sources). */
    private final int[] atCeil;
    private int atCeilSize;
    private int atCeilHead;
    /** Members under floor, in member order. */
    private final int[] unfilled;
    private int unfilledSize;
    /** Resolved owned shards of each member, ascending. */
    private int[][] owned;

    ConstrainedAssignmentBuilder(StickyInput in) {
        this.in = in;
        int n = in.memberCount();
        int total = in.shardCount();
        this.assignee = new int[total];
        this.count = new int[n];
        this.floor = total / n;
        this.ceil = total % n == 0 ? floor : floor + 1;
        this.atFloor = new int[n];
        this.atCeil = new int[n];
        this.unfilled = new int[n];
    }

    /** Computes the assignment: member index per global shard. */
    int[] build() {
        if (!in.anyClaim() && !in.racks.enabled()) {
            return fresh();
        }
        Arrays.fill(assignee, -1);
        keepOwned();
        int[] unassigned = unassignedInOrder();
        fill(unassigned);
        if (unfilledSize > 0) {
            steal();
        }
        distribute(unassigned);
        return assignee;
    }

    /**
     * The result of steps 1-4 when nothing is owned and racks play no part, without running them: every member
     * is unfilled, step 2 deals shard {@code i} of the stream/shard order to member {@code i mod n} until all
     * reach {@code floor} (in member order, so the last round leaves them at floor in that order) and step 4
     * gives the remaining {@code total mod n} shards to the first members in the same order: shard {@code s}
     * goes to member {@code s mod n}.
     */
    private int[] fresh() {
        int n = in.memberCount();
        int m = 0;
        for (int s = 0; s < assignee.length; s++) {
            assignee[s] = m;
            if (++m == n) {
                m = 0;
            }
        }
        return assignee;
    }

    /** Step 1: keep owned shards up to the quota of each branch (docs/assignors.md, "sticky"). */
    private void keepOwned() {
        int n = in.memberCount();
        owned = OwnedShards.byMember(in.owner(), n);
        for (int m = 0; m < n; m++) {
            int k = owned[m].length;
            if (k < floor) {
                keep(m, owned[m], k);
                unfilled[unfilledSize++] = m;
            } else if (k == floor) {
                keep(m, owned[m], floor);
                if (floor < ceil) {
                    atFloor[atFloorSize++] = m;
                }
            } else {
                keep(m, owned[m], ceil);
                atCeil[atCeilSize++] = m;
            }
        }
    }

    private void keep(int m, int[] owned, int quota) {
        int kept = 0;
        if (in.racks.enabled()) {
            for (int i = 0; i < owned.length && kept < quota; i++) {
                if (in.racks.matches(m, owned[i])) {
                    assignee[owned[i]] = m;
                    kept++;
                }
            }
        }
        for (int i = 0; i < owned.length && kept < quota; i++) {
            if (assignee[owned[i]] == -1) {
                assignee[owned[i]] = m;
                kept++;
            }
        }
        count[m] = kept;
    }

    /** Unassigned shards in stream/shard order; with racks, stably sorted by rack-matching member count. */
    private int[] unassignedInOrder() {
        int free = 0;
        for (int a : assignee) {
            free += a == -1 ? 1 : 0;
        }
        int[] list = new int[free];
        int i = 0;
        for (int s = 0; s < assignee.length; s++) {
            if (assignee[s] == -1) {
                list[i++] = s;
            }
        }
        return in.racks.enabled() ? RackOrder.byMatchingMembers(list, in.racks, in.memberCount()) : list;
    }

    /** Step 2: fill members under floor, rack-matching first; used shards become -1 in {@code list}. */
    private void fill(int[] list) {
        if (in.racks.enabled() && unfilledSize > 0) {
            RackQueues queues = new RackQueues(in.racks, unfilled, unfilledSize);
            for (int i = 0; i < list.length; i++) {
                int m = queues.take(in.racks.shardRacks(list[i]), x -> count[x] < floor);
                if (m >= 0) {
                    give(list[i], m);
                    list[i] = -1;
                }
            }
            compactUnfilled();
        }
        int used = 0;
        int cursor = 0;
        while (unfilledSize > 0 && used < list.length) {
            int shard = list[used++];
            if (shard < 0) {
                continue;
            }
            if (cursor >= unfilledSize) {
                cursor = 0;
            }
            int m = unfilled[cursor];
            give(shard, m);
            list[used - 1] = -1;
            if (count[m] == floor) {
                System.arraycopy(unfilled, cursor + 1, unfilled, cursor, unfilledSize - cursor - 1);
                unfilledSize--;
                if (floor < ceil) {
                    atFloor[atFloorSize++] = m;
                }
            } else {
                cursor++;
            }
        }
    }

    private void compactUnfilled() {
        int kept = 0;
        for (int i = 0; i < unfilledSize; i++) {
            int m = unfilled[i];
            if (count[m] < floor) {
                unfilled[kept++] = m;
            } else if (floor < ceil) {
                atFloor[atFloorSize++] = m;
            }
        }
        unfilledSize = kept;
    }

    /** Step 3: members still under floor take one shard from each max-capacity member in turn. */
    private void steal() {
        for (int i = 0; i < unfilledSize; i++) {
            int m = unfilled[i];
            while (count[m] < floor) {
                if (atCeilHead >= atCeilSize) {
                    throw new IllegalStateException("sticky: member " + in.members[m].memberId()
                            + " is under its quota but no member has a shard to spare");
                }
                int donor = atCeil[atCeilHead++];
                int shard = lastShardOf(donor);
                count[donor]--;
                give(shard, m);
            }
        }
        unfilledSize = 0;
    }

    private int lastShardOf(int member) {
        int[] shards = owned[member];
        for (int i = shards.length - 1; i >= 0; i--) {
            if (assignee[shards[i]] == member) {
                return shards[i];
            }
        }
        throw new IllegalStateException("sticky: member " + in.members[member].memberId() + " has no shard");
    }

    /** Step 4: the remaining shards go one each to members at floor, rack-matching first. */
    private void distribute(int[] list) {
        RackQueues queues = in.racks.enabled() ? new RackQueues(in.racks, atFloor, atFloorSize) : null;
        int head = 0;
        for (int i = 0; i < list.length; i++) {
            int shard = list[i];
            if (shard < 0 || assignee[shard] != -1) {
                continue;
            }
            int m = queues == null ? -1 : queues.take(in.racks.shardRacks(shard), x -> count[x] < ceil);
            if (m < 0) {
                while (head < atFloorSize && count[atFloor[head]] >= ceil) {
                    head++;
                }
                if (head >= atFloorSize) {
                    throw new IllegalStateException("sticky: shard " + shard + " is left but every member is full");
                }
                m = atFloor[head++];
            }
            give(shard, m);
        }
    }

    private void give(int shard, int member) {
        assignee[shard] = member;
        count[member]++;
    }
}
