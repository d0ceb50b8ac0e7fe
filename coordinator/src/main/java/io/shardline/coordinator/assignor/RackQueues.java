package io.shardline.coordinator.assignor;

import java.util.Arrays;

/**
 * Per-rack rotating queues of members that may still take shards, used to hand a shard to a member on one
 * of the racks that hold it. Members leave a queue lazily: {@link #take} skips and drops members the
 * {@link Capacity} says are full. Deterministic: members are queued in the order given. Not thread-safe.
 */
final class RackQueues {

    /** Tells whether a member may take one more shard. */
    @FunctionalInterface
    interface Capacity {
        boolean hasRoom(int member);
    }

    private final int[][] queues;
    private final int[] sizes;
    private final int[] next;

    /**
     * Queues each member of {@code members} (in order) under its rack; members without a rack are left out.
     *
     * @param racks the problem's racks (must be enabled)
     * @param members candidate members, in preference order
     * @param count number of entries of {@code members} to use
     */
    RackQueues(RackMap racks, int[] members, int count) {
        int rackCount = racks.rackCount();
        sizes = new int[rackCount];
        next = new int[rackCount];
        for (int i = 0; i < count; i++) {
            int r = racks.memberRack(members[i]);
            if (r >= 0) {
                sizes[r]++;
            }
        }
        queues = new int[rackCount][];
        for (int r = 0; r < rackCount; r++) {
            queues[r] = new int[sizes[r]];
        }
        int[] fill = new int[rackCount];
        for (int i = 0; i < count; i++) {
            int r = racks.memberRack(members[i]);
            if (r >= 0) {
                queues[r][fill[r]++] = members[i];
            }
        }
    }

    /**
     * The next member, round-robin within the first rack of {@code rackMask} that has a member with room;
     * -1 when none. Full members met on the way are dropped from their queue.
     */
    int take(long rackMask, Capacity capacity) {
        long mask = rackMask;
        while (mask != 0) {
            int r = Long.numberOfTrailingZeros(mask);
            mask &= mask - 1;
            if (r >= sizes.length) {
                break;
            }
            while (sizes[r] > 0) {
                int at = next[r] % sizes[r];
                int member = queues[r][at];
                if (capacity.hasRoom(member)) {
                    next[r] = at + 1;
                    return member;
                }
                // drop the full member, keeping the queue order
                System.arraycopy(queues[r], at + 1, queues[r], at, sizes[r] - at - 1);
                sizes[r]--;
                next[r] = at;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return "RackQueues" + Arrays.toString(sizes);
    }
}
