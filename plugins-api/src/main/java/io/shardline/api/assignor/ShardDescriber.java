package io.shardline.api.assignor;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Describes the streams an assignor works on: each stream's shard count and, where known, the racks
 * (availability zones) that hold each shard's data. Immutable and thread-safe.
 *
 * @param streams stream name to description, sorted by name
 */
public record ShardDescriber(SortedMap<String, StreamDescription> streams) {

    /** Copies {@code streams} into an unmodifiable sorted map. */
    public ShardDescriber {
        Objects.requireNonNull(streams, "streams");
        streams = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(streams));
    }

    /** A describer over the given streams. */
    public static ShardDescriber of(Map<String, StreamDescription> streams) {
        return new ShardDescriber(new TreeMap<>(streams));
    }

    /** A describer over the given streams, built from their descriptions. */
    public static ShardDescriber of(StreamDescription... streams) {
        TreeMap<String, StreamDescription> map = new TreeMap<>();
        for (StreamDescription s : streams) {
            if (map.put(s.name(), s) != null) {
                throw new IllegalArgumentException("duplicate stream '" + s.name() + "'");
            }
        }
        return new ShardDescriber(map);
    }

    /** True when the stream is known. */
    public boolean has(String stream) {
        return streams.containsKey(stream);
    }

    /** The shard count of {@code stream}, or -1 when the stream is unknown. */
    public int shardCount(String stream) {
        StreamDescription s = streams.get(stream);
        return s == null ? -1 : s.shardCount();
    }

    /** The racks holding {@code shard} of {@code stream}; empty when unknown. */
    public Set<String> racksOf(String stream, int shard) {
        StreamDescription s = streams.get(stream);
        return s == null ? Set.of() : s.racksOf(shard);
    }

    /** True when at least one shard of at least one stream has rack information. */
    public boolean hasRackInformation() {
        return streams.values().stream().anyMatch(StreamDescription::hasRackInformation);
    }
}
