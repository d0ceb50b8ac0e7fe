package io.shardline.coordinator.assignor;

import java.util.Arrays;

/**
 * Orders shards for rack-aware filling as Kafka does: shards that the fewest members share a rack with
 * come first, so that scarce matches are used before plentiful ones; the sort is stable. Stateless.
 */
final class RackOrder {

    private RackOrder() {
    }

    /**
     * Sorts {@code shards} (in place, returned) by the number of members whose rack holds the shard.
     *
     * @param shards global shard indices, in their tie-break order
     * @param racks the problem's racks (enabled)
     * @param members number of members
     */
    static int[] byMatchingMembers(int[] shards, RackMap racks, int members) {
        return byMatchingMembers(shards, racks, membersPerRack(racks, members));
    }

    /** Number of members on each rack id. */
    static int[] membersPerRack(RackMap racks, int members) {
        int[] perRack = new int[racks.rackCount()];
        for (int m = 0; m < members; m++) {
            int r = racks.memberRack(m);
            if (r >= 0) {
                perRack[r]++;
            }
        }
        return perRack;
    }

    /** As {@link #byMatchingMembers(int[], RackMap, int)} with precomputed {@link #membersPerRack}. */
    static int[] byMatchingMembers(int[] shards, RackMap racks, int[] perRack) {
        long[] keyed = new long[shards.length];
        for (int i = 0; i < shards.length; i++) {
            long mask = racks.shardRacks(shards[i]);
            long matching = 0;
            while (mask != 0) {
                matching += perRack[Long.numberOfTrailingZeros(mask)];
                mask &= mask - 1;
            }
            keyed[i] = matching << 32 | i;
        }
        Arrays.sort(keyed);
        int[] copy = shards.clone();
        for (int i = 0; i < shards.length; i++) {
            shards[i] = copy[(int) keyed[i]];
        }
        return shards;
    }
}
