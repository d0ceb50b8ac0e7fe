package io.shardline.coordinator.assignor;

import java.util.Arrays;

/**
 * The {@code sticky} assignment when members have different weights ({@code member.weight}): each member gets a
 * share of shards proportional to its weight, within one shard ({@link WeightedShares}), and keeps the shards it
 * owned up to its share; only the rest is dealt out, so when a weight changes no assignment with these shares
 * moves fewer shards. With identical subscriptions the shares are taken over all shards together; with different
 * subscriptions stream by stream, over each stream's subscribers. Racks are not considered on this path.
 * Linear in shards plus members; not thread-safe, one per call.
 */
final class WeightedStickyBuilder {

    private final StickyInput in;
    private final int[] assignee;

    WeightedStickyBuilder(StickyInput in) {
        this.in = in;
        this.assignee = new int[in.shardCount()];
        Arrays.fill(assignee, -1);
    }

    /** Member index per global shard, -1 for unread shards. */
    int[] build() {
        int[] all = new int[in.memberCount()];
        for (int m = 0; m < all.length; m++) {
            all[m] = m;
        }
        if (in.identicalSubscriptions()) {
            int[] streams = in.memberStreams[0];
            int count = 0;
            for (int t : streams) {
                count += in.streamOffset[t + 1] - in.streamOffset[t];
            }
            int[] shards = new int[count];
            int at = 0;
            for (int t : streams) {
                for (int s = in.streamOffset[t]; s < in.streamOffset[t + 1]; s++) {
                    shards[at++] = s;
                }
            }
            share(shards, all);
        } else {
            for (int t = 0; t < in.streamCount(); t++) {
                int subscribers = 0;
                for (int m = 0; m < all.length; m++) {
                    subscribers += in.subscribes(m, t) ? 1 : 0;
                }
                int[] readers = new int[subscribers];
                for (int m = 0, j = 0; m < all.length; m++) {
                    if (in.subscribes(m, t)) {
                        readers[j++] = m;
                    }
                }
                int[] shards = new int[in.streamOffset[t + 1] - in.streamOffset[t]];
                for (int s = 0; s < shards.length; s++) {
                    shards[s] = in.streamOffset[t] + s;
                }
                share(shards, readers);
            }
        }
        return assignee;
    }

    /** Shares {@code shards} over {@code members} by weight: owned shards kept up to the share, the rest dealt. */
    private void share(int[] shards, int[] members) {
        if (members.length == 0 || shards.length == 0) {
            return;
        }
        int[] owner = in.owner();
        int[] pos = new int[in.memberCount()];
        Arrays.fill(pos, -1);
        long[] weights = new long[members.length];
        for (int j = 0; j < members.length; j++) {
            pos[members[j]] = j;
            weights[j] = in.members[members[j]].weight();
        }
        // Shares depend on the weights and the member order only, not on what is owned: so cooperative-sticky, run
        // on its own output, computes the same shares and converges in two rounds.
        int[] quota = WeightedShares.of(shards.length, weights, new int[members.length]);
        int[] held = new int[members.length];
        for (int s : shards) {
            int j = owner[s] >= 0 ? pos[owner[s]] : -1;
            if (j >= 0 && held[j] < quota[j]) {
                assignee[s] = members[j];
                held[j]++;
            }
        }
        int next = 0;
        for (int s : shards) {
            if (assignee[s] >= 0) {
                continue;
            }
            while (held[next] >= quota[next]) {
                next = (next + 1) % members.length;
            }
            assignee[s] = members[next];
            held[next]++;
            next = (next + 1) % members.length;
        }
    }
}
