package io.shardline.runtime.topology;

import io.shardline.api.handler.ShardId;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * One entry of a listener's {@code streams} setting: a logical stream and its shard count, written
 * {@code orders:16}. Immutable.
 *
 * @param name the logical stream
 * @param shardCount its number of shards (1..100000)
 */
public record StreamSpec(String name, int shardCount) {

    /** The largest shard count accepted. */
    public static final int MAX_SHARDS = 100_000;

    /** Validates the name (through {@link ShardId}) and the count. */
    public StreamSpec {
        Objects.requireNonNull(name, "name");
        new ShardId(name, 0);
        if (shardCount < 1 || shardCount > MAX_SHARDS) {
            throw new IllegalArgumentException("shard count of stream '" + name + "' must be 1.." + MAX_SHARDS + ", got " + shardCount);
        }
    }

    /**
     * Parses {@code name:count}.
     *
     * @throws IllegalArgumentException saying what is wrong with {@code text}
     */
    public static StreamSpec parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not <stream>:<shard count>, e.g. orders:16");
        }
        String count = text.substring(colon + 1).trim();
        try {
            return new StreamSpec(text.substring(0, colon).trim(), Integer.parseInt(count));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("shard count '" + count + "' in '" + text + "' is not a number");
        }
    }

    /** Every shard of the stream, in index order. */
    public List<ShardId> shards() {
        return IntStream.range(0, shardCount).mapToObj(i -> new ShardId(name, i)).toList();
    }

    @Override
    public String toString() {
        return name + ":" + shardCount;
    }
}
