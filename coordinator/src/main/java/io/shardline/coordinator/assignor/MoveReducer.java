package io.shardline.coordinator.assignor;

/**
 * A final pass of the general sticky path that gives moved shards back to their previous owner when that
 * costs no balance. Shard {@code s} moved from its previous owner {@code Y} to {@code X}; it goes back to
 * {@code Y} when {@code Y} is at the bottom of its subscription class and {@code X}'s class has a member
 * {@code Z} at its top with exactly one shard more than {@code Y}: either {@code Z = X}, or {@code Z} hands
 * one shard it did not own before to {@code X} (members of a class can take the same shards). Two counts
 * swap, so the multiset of counts (every balance measure) is unchanged, members with identical
 * subscriptions still differ by at most one, and one move less is made. Linear in shards plus members of
 * the classes involved, with a work bound. Not thread-safe; one per call.
 */
final class MoveReducer {

    private final StickyInput in;
    private final SubscriptionClasses cls;
    private final int[] assignee;
    private final int[] count;
    /** Class counts lie in {base, base + 1}; top = number of members at base + 1. */
    private final int[] base;
    private final int[] top;
    private final int[][] shardsOf;
    private final int[] scan;

    private MoveReducer(StickyInput in, SubscriptionClasses cls, int[] assignee) {
        this.in = in;
        this.cls = cls;
        this.assignee = assignee;
        int n = in.memberCount();
        count = new int[n];
        for (int a : assignee) {
            if (a >= 0) {
                count[a]++;
            }
        }
        int k = cls.count();
        base = new int[k];
        top = new int[k];
        for (int c = 0; c < k; c++) {
            int min = Integer.MAX_VALUE;
            for (int m : cls.members[c]) {
                min = Math.min(min, count[m]);
            }
            base[c] = min;
            for (int m : cls.members[c]) {
                top[c] += count[m] > min ? 1 : 0;
            }
        }
        shardsOf = OwnedShards.byMember(assignee, n);
        scan = new int[n];
    }

    /**
     * Gives balance-neutral moves back, in place.
     *
     * @return how many shards were given back
     */
    static int giveBack(StickyInput in, SubscriptionClasses cls, int[] assignee, long workLimit) {
        return new MoveReducer(in, cls, assignee).run(workLimit);
    }

    private int run(long workLimit) {
        int given = 0;
        long work = 0;
        for (int s = 0; s < assignee.length && work < workLimit; s++) {
            int y = in.owner()[s];
            int x = assignee[s];
            if (y < 0 || x < 0 || x == y || count[y] != base[cls.classOf[y]]) {
                continue;
            }
            int cx = cls.classOf[x];
            int level = count[y] + 1;
            if (count[x] == level && isTop(x)) {
                lower(x);
                raise(y);
                assignee[s] = y;
                given++;
                continue;
            }
            if (count[x] == level - 1 && topLevel(cx) == level) {
                work += cls.members[cx].length;
                int z = memberAt(cx, level);
                int t = z < 0 ? -1 : unownedShardOf(z);
                if (t >= 0) {
                    lower(z);
                    raise(y);
                    assignee[s] = y;
                    assignee[t] = x;
                    given++;
                }
            }
        }
        return given;
    }

    private int topLevel(int c) {
        return top[c] > 0 ? base[c] + 1 : base[c];
    }

    private boolean isTop(int m) {
        return count[m] == topLevel(cls.classOf[m]);
    }

    private int memberAt(int c, int level) {
        for (int m : cls.members[c]) {
            if (count[m] == level) {
                return m;
            }
        }
        return -1;
    }

    /** A shard {@code z} holds now but did not own before, or -1. */
    private int unownedShardOf(int z) {
        int[] shards = shardsOf[z];
        while (scan[z] < shards.length) {
            int t = shards[scan[z]++];
            if (assignee[t] == z && in.owner()[t] != z) {
                return t;
            }
        }
        return -1;
    }

    private void lower(int m) {
        int c = cls.classOf[m];
        if (top[c] > 0) {
            top[c]--;
        } else {
            base[c]--;
            top[c] = cls.members[c].length - 1;
        }
        count[m]--;
    }

    private void raise(int m) {
        int c = cls.classOf[m];
        top[c]++;
        if (top[c] == cls.members[c].length) {
            base[c]++;
            top[c] = 0;
        }
        count[m]++;
    }
}
