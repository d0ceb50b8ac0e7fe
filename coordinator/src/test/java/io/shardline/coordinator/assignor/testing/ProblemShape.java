package io.shardline.coordinator.assignor.testing;

/**
 * The knobs of {@link RandomProblems}: upper bounds on sizes and the chances of the interesting features.
 * Chances are in {@code [0, 1]}. Immutable.
 *
 * @param maxStreams streams per problem, at least 1
 * @param maxShards shards per stream (a stream may also get 0, see {@code zeroShardChance})
 * @param maxMembers members per problem (a problem may also have 0 members, rarely)
 * @param maxRacks size of the rack pool
 * @param zeroShardChance chance that a stream has no shard
 * @param equalShardCountChance chance that all streams of a problem have the same shard count (co-partitioned)
 * @param instanceIdChance chance that a member has a static instance id
 * @param rackChance chance that a problem has rack information (on members, shards, or both)
 * @param identicalSubscriptionChance chance that all members subscribe to the same streams
 * @param previousOwnershipChance chance that a problem has previous ownership (after joins and leaves)
 * @param duplicateClaimChance chance, per problem with previous ownership, of shards claimed by two members
 * @param unknownStreamChance chance that a member also subscribes to a stream the describer does not know
 */
public record ProblemShape(
        int maxStreams,
        int maxShards,
        int maxMembers,
        int maxRacks,
        double zeroShardChance,
        double equalShardCountChance,
        double instanceIdChance,
        double rackChance,
        double identicalSubscriptionChance,
        double previousOwnershipChance,
        double duplicateClaimChance,
        double unknownStreamChance) {

    /** Validates. */
    public ProblemShape {
        if (maxStreams < 1 || maxShards < 1 || maxMembers < 1 || maxRacks < 1) {
            throw new IllegalArgumentException("maxStreams, maxShards, maxMembers and maxRacks must be >= 1");
        }
    }

    /** Small problems (up to 4 streams of up to 12 shards, 8 members): fast, and every edge case is likely. */
    public static ProblemShape small() {
        return new ProblemShape(4, 12, 8, 3, 0.1, 0.4, 0.3, 0.6, 0.4, 0.5, 0.3, 0.0);
    }

    /** Medium problems (up to 10 streams of up to 64 shards, 30 members). */
    public static ProblemShape medium() {
        return new ProblemShape(10, 64, 30, 4, 0.05, 0.3, 0.3, 0.5, 0.4, 0.5, 0.3, 0.0);
    }

    /**
     * Wide problems (up to 24 streams of up to 24 shards, 24 members): many streams and mostly heterogeneous
     * subscriptions with previous ownership, where per-stream and per-class balance are hardest to keep.
     */
    public static ProblemShape wide() {
        return new ProblemShape(24, 24, 24, 3, 0.05, 0.2, 0.2, 0.3, 0.25, 0.8, 0.2, 0.0);
    }

    /**
     * Many streams with few shards (up to 40 streams of up to 4 shards, 16 members), mostly heterogeneous
     * subscriptions with previous ownership: where a member holds shards of many streams, so that per-stream balance
     * (a shard that could move to a subscriber holding 2 or more fewer) is decided by few shards.
     */
    public static ProblemShape manyStreamsFewShards() {
        return new ProblemShape(40, 4, 16, 3, 0.05, 0.2, 0.2, 0.3, 0.2, 0.8, 0.2, 0.0);
    }

    /** A copy with the given chance of subscriptions to unknown streams. */
    public ProblemShape withUnknownStreamChance(double chance) {
        return new ProblemShape(maxStreams, maxShards, maxMembers, maxRacks, zeroShardChance, equalShardCountChance,
                instanceIdChance, rackChance, identicalSubscriptionChance, previousOwnershipChance,
                duplicateClaimChance, chance);
    }

    /** A copy with the given chance of rack information. */
    public ProblemShape withRackChance(double chance) {
        return new ProblemShape(maxStreams, maxShards, maxMembers, maxRacks, zeroShardChance, equalShardCountChance,
                instanceIdChance, chance, identicalSubscriptionChance, previousOwnershipChance,
                duplicateClaimChance, unknownStreamChance);
    }

    /** A copy with the given chance of identical subscriptions. */
    public ProblemShape withIdenticalSubscriptionChance(double chance) {
        return new ProblemShape(maxStreams, maxShards, maxMembers, maxRacks, zeroShardChance, equalShardCountChance,
                instanceIdChance, rackChance, chance, previousOwnershipChance, duplicateClaimChance,
                unknownStreamChance);
    }
}
