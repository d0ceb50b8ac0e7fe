package io.shardline.coordinator.assignor;

/** Groups shards by member with a counting sort: no per-shard objects. Stateless. */
final class OwnedShards {

    private OwnedShards() {
    }

    /**
     * The shards of each member, ascending.
     *
     * @param owner member index per global shard, -1 for none
     * @param members number of members
     */
    static int[][] byMember(int[] owner, int members) {
        int[] counts = new int[members];
        for (int o : owner) {
            if (o >= 0) {
                counts[o]++;
            }
        }
        int[][] result = new int[members][];
        for (int m = 0; m < members; m++) {
            result[m] = new int[counts[m]];
        }
        int[] fill = new int[members];
        for (int s = 0; s < owner.length; s++) {
            int o = owner[s];
            if (o >= 0) {
                result[o][fill[o]++] = s;
            }
        }
        return result;
    }
}
