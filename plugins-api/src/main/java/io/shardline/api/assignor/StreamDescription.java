package io.shardline.api.assignor;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One stream as an assignor sees it: its name, its shard count (shards are {@code 0..shardCount-1}) and,
 * optionally, for each shard the racks that hold its data. Immutable and thread-safe.
 *
 * @param name the stream name
 * @param shardCount number of shards, {@code >= 0}
 * @param racks for shard {@code i}, {@code racks.get(i)} is the set of racks holding it; an empty list means
 *     no rack information for any shard, an empty set no rack information for that shard
 */
public record StreamDescription(String name, int shardCount, List<Set<String>> racks) {

    /** Validates and copies. */
    public StreamDescription {
        Objects.requireNonNull(name, "name");
        if (shardCount < 0) {
            throw new IllegalArgumentException("stream '" + name + "': shard count must be >= 0, was " + shardCount);
        }
        racks = racks == null ? List.of() : racks.stream().map(Set::copyOf).toList();
        if (!racks.isEmpty() && racks.size() != shardCount) {
            throw new IllegalArgumentException("stream '" + name + "': racks has " + racks.size()
                    + " entries for " + shardCount + " shards");
        }
    }

    /** A stream without rack information. */
    public static StreamDescription of(String name, int shardCount) {
        return new StreamDescription(name, shardCount, List.of());
    }

    /** The racks holding {@code shard}; empty when unknown. */
    public Set<String> racksOf(int shard) {
        return racks.isEmpty() ? Set.of() : racks.get(shard);
    }

    /** True when at least one shard has rack information. */
    public boolean hasRackInformation() {
        return racks.stream().anyMatch(r -> !r.isEmpty());
    }
}
