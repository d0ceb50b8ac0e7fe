package io.shardline.coordinator.assignor;

/**
 * A final pass of the general sticky path that gives moved shards back to their previous owner when that
 * costs no balance: shard {@code s} goes from {@code X} back to its previous owner {@code Y} when {@code X}
 * has exactly one shard more than {@code Y}, {@code X} is at the top of its subscription class and
 * {@code Y} at the bottom of its own. The multiset of shard counts is unchanged (two values swap), members
 * with identical subscriptions still differ by at most one, and one move less is made. Linear in shards.
 * Not thread-safe; one per call.
 */
final class MoveReducer {

    private MoveReducer() {
    }

    /**
     * Gives balance-neutral moves back, in place.
     *
     * @param in the problem (previous owners)
     * @param cls the subscription classes
     * @param assignee member per shard, updated
     * @return how many shards were given back
     */
    static int giveBack(StickyInput in, SubscriptionClasses cls, int[] assignee) {
        int n = in.memberCount();
        int[] count = new int[n];
        for (int a : assignee) {
            if (a >= 0) {
                count[a]++;
            }
        }
        int k = cls.count();
        // class counts lie in {base, base + 1}; top = number of members at base + 1
        int[] base = new int[k];
        int[] top = new int[k];
        for (int c = 0; c < k; c++) {
            int[] members = cls.members[c];
            int min = Integer.MAX_VALUE;
            for (int m : members) {
                min = Math.min(min, count[m]);
            }
            base[c] = min;
            for (int m : members) {
                top[c] += count[m] > min ? 1 : 0;
            }
        }
        int given = 0;
        for (int s = 0; s < assignee.length; s++) {
            int y = in.owner[s];
            int x = assignee[s];
            if (y < 0 || x < 0 || x == y || count[x] != count[y] + 1) {
                continue;
            }
            int cx = cls.classOf[x];
            int cy = cls.classOf[y];
            boolean xAtTop = top[cx] > 0 ? count[x] == base[cx] + 1 : count[x] == base[cx];
            boolean yAtBottom = count[y] == base[cy];
            if (!xAtTop || !yAtBottom) {
                continue;
            }
            if (top[cx] > 0) {
                top[cx]--;
            } else {
                base[cx]--;
                top[cx] = cls.members[cx].length - 1;
            }
            top[cy]++;
            if (top[cy] == cls.members[cy].length) {
                base[cy]++;
                top[cy] = 0;
            }
            count[x]--;
            count[y]++;
            assignee[s] = y;
            given++;
        }
        return given;
    }
}
