package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamNameSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/**
 * A sticky assignment problem in array form: members sorted by member id (so the result does not depend
 * on input order), subscribed streams sorted by name, every shard numbered globally
 * ({@code streamOffset[stream] + shard}), and the previous owner of every shard resolved.
 *
 * <p>Previous ownership follows Kafka's sticky assignors: a claim counts only for a stream and shard that
 * still exist; when several members claim a shard, the unique claimant with the highest generation owns
 * it, and a tie at the highest generation voids the claim for everyone; a winner that no longer subscribes
 * to the stream loses it. Raw claims (any generation) are kept separately for the cooperative assignor.
 * No per-shard objects: a million shards cost a few {@code int[]}s. Not thread-safe; one per call.
 */
final class StickyInput {

    /** {@link #claimer} value of a shard claimed by two or more members. */
    static final int MANY = -2;

    private static final int TIED = -2;

    final MemberSubscription[] members;
    final String[] streams;
    /** Global index of shard 0 of each stream; {@code streamOffset[streams.length]} is the shard total. */
    final int[] streamOffset;
    /** Stream index of each global shard; made on first use ({@link #streamOfShard()}). */
    private int[] streamOfShard;
    /** Subscribed stream indices of each member, ascending. */
    final int[][] memberStreams;
    /** Resolved previous owner of each shard (member index), -1 when none; see {@link #owner()}. */
    private int[] owner;
    /** Raw claimer of each shard: -1 none, a member index, or {@link #MANY}; see {@link #claimer()}. */
    private int[] claimer;
    final RackMap racks;
    /** Stream name to its index, or -1 for a subscribed stream that does not exist. */
    private final HashMap<String, Integer> index;
    /** True when every member's subscription set equals the first member's. */
    private final boolean identical;
    /** Set by {@link #resolveOwnership}: some shard of a subscribed stream is claimed. */
    private boolean anyClaim;

    private StickyInput(MemberSubscription[] members, String[] streams, int[] streamOffset, int[][] memberStreams,
            HashMap<String, Integer> index, boolean identical, ShardDescriber describer) {
        this.members = members;
        this.streams = streams;
        this.streamOffset = streamOffset;
        this.memberStreams = memberStreams;
        this.index = index;
        this.identical = identical;
        resolveOwnership();
        this.racks = RackMap.of(members, streams, streamOffset, describer);
    }

    /** Indexes {@code group} over {@code describer}. */
    static StickyInput of(GroupSpec group, ShardDescriber describer) {
        MemberSubscription[] members = group.members().toArray(new MemberSubscription[0]);
        Arrays.sort(members, Comparator.comparing(MemberSubscription::memberId));
        boolean identical = true;
        for (int i = 1; i < members.length && identical; i++) {
            identical = sameStreams(members[i].subscriptions(), members[0].subscriptions());
        }
        // hash, not compare: a million subscriptions of a few hundred streams cost a million cached-hash
        // look-ups, and each distinct stream is checked against the describer once; with identical
        // subscriptions (checked above by one ordered walk per member) only the first member is indexed
        HashMap<String, Integer> index = new HashMap<>();
        List<String> existing = new ArrayList<>();
        for (int i = 0; i < (identical ? Math.min(1, members.length) : members.length); i++) {
            for (String stream : members[i].subscriptions()) {
                if (index.putIfAbsent(stream, -1) == null && describer.has(stream)) {
                    existing.add(stream);
                }
            }
        }
        String[] streams = existing.toArray(new String[0]);
        Arrays.sort(streams);
        int[] offset = new int[streams.length + 1];
        for (int t = 0; t < streams.length; t++) {
            index.put(streams[t], t);
            long next = (long) offset[t] + describer.shardCount(streams[t]);
            if (next > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("too many shards: more than " + (Integer.MAX_VALUE - 8));
            }
            offset[t + 1] = (int) next;
        }
        int[][] memberStreams = new int[members.length][];
        int[] scratch = new int[streams.length];
        for (int i = 0; i < members.length; i++) {
            if (identical && i > 0) {
                // read-only everywhere, so one array serves every member
                memberStreams[i] = memberStreams[0];
                continue;
            }
            int n = 0;
            for (String stream : members[i].subscriptions()) {
                int t = index.get(stream);
                if (t >= 0) {
                    scratch[n++] = t;
                }
            }
            // subscriptions are sorted like streams, so the indices ascend
            memberStreams[i] = Arrays.copyOf(scratch, n);
        }
        return new StickyInput(members, streams, offset, memberStreams, index, identical, describer);
    }

    /**
     * True when two subscription sets hold the same names: one ordered walk, an identity check first (names
     * parsed once are shared between members). False (the general indexing) for sets in another order.
     */
    private static boolean sameStreams(SortedSet<String> a, SortedSet<String> b) {
        if (a == b) {
            return true;
        }
        if (a instanceof StreamNameSet x && b instanceof StreamNameSet y) {
            return x.sameNames(y);
        }
        if (a.size() != b.size() || a.comparator() != null || b.comparator() != null) {
            return false;
        }
        Iterator<String> ia = a.iterator();
        Iterator<String> ib = b.iterator();
        while (ia.hasNext()) {
            String x = ia.next();
            String y = ib.next();
            if (x != y && !x.equals(y)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The stream index of each global shard. Made on first use: the general path needs it, the constrained
     * path (identical subscriptions) does not.
     */
    int[] streamOfShard() {
        if (streamOfShard == null) {
            streamOfShard = new int[shardCount()];
            for (int t = 0; t < streams.length; t++) {
                Arrays.fill(streamOfShard, streamOffset[t], streamOffset[t + 1], t);
            }
        }
        return streamOfShard;
    }

    /** Number of members. */
    int memberCount() {
        return members.length;
    }

    /** Number of subscribed streams. */
    int streamCount() {
        return streams.length;
    }

    /** Total number of shards of subscribed streams. */
    int shardCount() {
        return streamOffset[streams.length];
    }

    /** Index of a stream name, or -1. */
    int streamIndex(String stream) {
        int i = Arrays.binarySearch(streams, stream);
        return i >= 0 ? i : -1;
    }

    /** True when every member subscribes to exactly the same (existing) streams. */
    boolean identicalSubscriptions() {
        if (identical) {
            return true;
        }
        for (int i = 1; i < memberStreams.length; i++) {
            if (!Arrays.equals(memberStreams[i], memberStreams[0])) {
                return false;
            }
        }
        return true;
    }

    /** True when member {@code m} subscribes to stream {@code t}. */
    boolean subscribes(int m, int t) {
        return Arrays.binarySearch(memberStreams[m], t) >= 0;
    }

    /** True when some member claims a shard of a subscribed stream (so some shard may have an owner). */
    boolean anyClaim() {
        return anyClaim;
    }

    /**
     * Resolved previous owner of each shard (member index), -1 when none. In a group where nobody owns
     * anything it is made (all -1) only when asked for: a fresh group's constrained path never reads it.
     */
    int[] owner() {
        if (owner == null) {
            owner = unclaimed();
        }
        return owner;
    }

    /** Raw claimer of each shard: -1 none, a member index, or {@link #MANY}; made on first use as {@link #owner()}. */
    int[] claimer() {
        if (claimer == null) {
            claimer = unclaimed();
        }
        return claimer;
    }

    private int[] unclaimed() {
        int[] none = new int[shardCount()];
        Arrays.fill(none, -1);
        return none;
    }

    private void resolveOwnership() {
        boolean claims = false;
        for (MemberSubscription m : members) {
            claims |= !m.owned().isEmpty();
        }
        if (!claims) {
            // a fresh group: nothing to resolve
            return;
        }
        owner = unclaimed();
        claimer = unclaimed();
        int[] bestGeneration = new int[owner.length];
        for (int m = 0; m < members.length; m++) {
            int generation = members[m].generation();
            for (Map.Entry<String, ShardSet> e : members[m].owned().entrySet()) {
                Integer known = index.get(e.getKey());
                int t = known == null ? -1 : known;
                if (t < 0) {
                    continue;
                }
                int count = streamOffset[t + 1] - streamOffset[t];
                ShardSet set = e.getValue();
                for (int k = 0; k < set.size(); k++) {
                    int p = set.get(k);
                    if (p >= count) {
                        break;
                    }
                    int shard = streamOffset[t] + p;
                    anyClaim = true;
                    claimer[shard] = claimer[shard] == -1 ? m : MANY;
                    claim(shard, m, generation, bestGeneration);
                }
            }
        }
        // as Kafka: generations decide between all claims on existing streams, then a winner that no
        // longer subscribes to the stream loses the shard
        // (with identical subscriptions every member subscribes to every stream)
        for (int s = 0; s < owner.length; s++) {
            if (owner[s] == TIED || owner[s] >= 0 && !identical && !subscribes(owner[s], streamOfShard()[s])) {
                owner[s] = -1;
            }
        }
    }

    private void claim(int shard, int member, int generation, int[] bestGeneration) {
        int current = owner[shard];
        if (current == -1 || generation > bestGeneration[shard]) {
            owner[shard] = member;
            bestGeneration[shard] = generation;
        } else if (generation == bestGeneration[shard]) {
            owner[shard] = TIED;
        }
    }
}
