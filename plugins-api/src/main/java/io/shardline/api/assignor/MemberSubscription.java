package io.shardline.api.assignor;

import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * One member as an assignor sees it. Immutable and thread-safe.
 *
 * @param memberId the member id, unique in the group
 * @param instanceId the static instance id, if the member has one (Kafka's {@code group.instance.id}); members
 *     with one sort before members without, by instance id
 * @param rack the member's rack (availability zone), if known
 * @param subscriptions the streams the member reads, sorted in natural order (a {@link StreamNameSet})
 * @param owned shards the member owned after the previous assignment, by stream (sorted in natural order; a
 *     {@link StreamShardMap})
 * @param generation the generation in which {@code owned} was assigned; when two members claim the same shard
 *     the higher generation wins and equal generations void the claim for both
 * @param weight the member's capacity relative to the others ({@code member.weight}, default 1): the sticky,
 *     cooperative-sticky and round-robin assignors give members shares proportional to their weights
 */
public record MemberSubscription(
        String memberId,
        Optional<String> instanceId,
        Optional<String> rack,
        SortedSet<String> subscriptions,
        SortedMap<String, ShardSet> owned,
        int generation,
        int weight) {

    /** Generation of a member that reported no generation (Kafka's {@code DEFAULT_GENERATION}). */
    public static final int DEFAULT_GENERATION = -1;

    /**
     * Validates and copies into unmodifiable sorted collections (natural order); empty owned sets are dropped.
     * A {@link StreamNameSet} of subscriptions and a {@link StreamShardMap} of owned shards are kept as they
     * are (both immutable), so members made from one set share it.
     */
    public MemberSubscription {
        Objects.requireNonNull(memberId, "memberId");
        instanceId = Objects.requireNonNullElse(instanceId, Optional.empty());
        rack = Objects.requireNonNullElse(rack, Optional.empty());
        subscriptions = StreamNameSet.copyOf(subscriptions);
        owned = StreamShardMap.copyOf(owned);
        if (weight < 1) {
            throw new IllegalArgumentException("member '" + memberId + "': weight must be >= 1, was " + weight);
        }
    }

    /** A member of weight 1. */
    public MemberSubscription(String memberId, Optional<String> instanceId, Optional<String> rack,
            SortedSet<String> subscriptions, SortedMap<String, ShardSet> owned, int generation) {
        this(memberId, instanceId, rack, subscriptions, owned, generation, 1);
    }

    /** A member without instance id, rack or owned shards. */
    public static MemberSubscription of(String memberId, Collection<String> subscriptions) {
        return new MemberSubscription(memberId, Optional.empty(), Optional.empty(),
                StreamNameSet.copyOf(subscriptions), StreamShardMap.EMPTY, DEFAULT_GENERATION);
    }

    /** A copy owning {@code owned} since {@code generation}. */
    public MemberSubscription withOwned(Map<String, ShardSet> owned, int generation) {
        return new MemberSubscription(memberId, instanceId, rack, subscriptions, StreamShardMap.copyOf(owned), generation,
                weight);
    }

    /** A copy with the given rack. */
    public MemberSubscription withRack(String rack) {
        return new MemberSubscription(memberId, instanceId, Optional.ofNullable(rack), subscriptions, owned, generation,
                weight);
    }

    /** A copy with the given static instance id. */
    public MemberSubscription withInstanceId(String instanceId) {
        return new MemberSubscription(memberId, Optional.ofNullable(instanceId), rack, subscriptions, owned, generation,
                weight);
    }

    /** A copy with the given weight. */
    public MemberSubscription withWeight(int weight) {
        return new MemberSubscription(memberId, instanceId, rack, subscriptions, owned, generation, weight);
    }

    /** Total number of owned shards over all streams. */
    public int ownedCount() {
        return owned.values().stream().mapToInt(ShardSet::size).sum();
    }
}
