package io.shardline.coordinator.assignor;

import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Rack information of a sticky problem in array form: a rack id per member and a bit mask of racks per
 * shard. Immutable after construction; not shared between calls.
 *
 * <p>Rack-aware assignment is enabled under Kafka's rule (KIP-881): at least one member has a rack that
 * also holds some shard, and at least one shard is not held by every rack that holds shards (otherwise
 * every member would be equally close to every shard). More than 63 distinct racks disable it: the masks
 * are {@code long}s, and a rack preference never changes balance or moves anyway.
 */
final class RackMap {

    /** The map of a problem without usable rack information. */
    static final RackMap NONE = new RackMap(false, null, null);

    private static final int MAX_RACKS = 63;

    private final boolean enabled;
    /** Rack id per member index, -1 when the member has no (known) rack. */
    private final int[] memberRack;
    /** Rack bit mask per global shard index. */
    private final long[] shardRacks;

    private RackMap(boolean enabled, int[] memberRack, long[] shardRacks) {
        this.enabled = enabled;
        this.memberRack = memberRack;
        this.shardRacks = shardRacks;
    }

    /**
     * Builds the rack map of a problem.
     *
     * @param members members in index order
     * @param streams subscribed streams in index order
     * @param streamOffset global index of each stream's shard 0 (length streams + 1)
     * @param describer shard racks
     */
    static RackMap of(MemberSubscription[] members, String[] streams, int[] streamOffset, ShardDescriber describer) {
        boolean anyMemberRack = false;
        for (MemberSubscription m : members) {
            anyMemberRack |= m.rack().isPresent() && !m.rack().get().isEmpty();
        }
        if (!anyMemberRack || !describer.hasRackInformation()) {
            return NONE;
        }
        Map<String, Integer> ids = new HashMap<>();
        long[] shardRacks = new long[streamOffset[streams.length]];
        long all = 0;
        for (int t = 0; t < streams.length; t++) {
            int count = streamOffset[t + 1] - streamOffset[t];
            for (int p = 0; p < count; p++) {
                Set<String> racks = describer.racksOf(streams[t], p);
                long mask = 0;
                for (String rack : racks) {
                    Integer id = ids.computeIfAbsent(rack, r -> ids.size());
                    if (id >= MAX_RACKS) {
                        return NONE;
                    }
                    mask |= 1L << id;
                }
                shardRacks[streamOffset[t] + p] = mask;
                all |= mask;
            }
        }
        int[] memberRack = new int[members.length];
        long memberMask = 0;
        for (int i = 0; i < members.length; i++) {
            Integer id = members[i].rack().map(ids::get).orElse(null);
            memberRack[i] = id == null ? -1 : id;
            memberMask |= id == null ? 0 : 1L << id;
        }
        boolean someShardOnSubset = false;
        for (long mask : shardRacks) {
            if (mask != all) {
                someShardOnSubset = true;
                break;
            }
        }
        boolean enabled = (memberMask & all) != 0 && someShardOnSubset;
        return enabled ? new RackMap(true, memberRack, shardRacks) : NONE;
    }

    /** True when rack preferences apply. */
    boolean enabled() {
        return enabled;
    }

    /** Rack id of a member, -1 when none. */
    int memberRack(int member) {
        return enabled ? memberRack[member] : -1;
    }

    /** Rack mask of a global shard; 0 when disabled or unknown. */
    long shardRacks(int shard) {
        return enabled ? shardRacks[shard] : 0L;
    }

    /** True when the member's rack holds the shard. */
    boolean matches(int member, int shard) {
        if (!enabled) {
            return false;
        }
        int rack = memberRack[member];
        return rack >= 0 && (shardRacks[shard] & (1L << rack)) != 0;
    }

    /** Number of distinct rack ids (upper bound), for per-rack tables. */
    int rackCount() {
        return MAX_RACKS;
    }
}
