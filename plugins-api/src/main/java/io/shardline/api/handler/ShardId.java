package io.shardline.api.handler;

import java.util.Objects;

/**
 * One shard of a logical stream: the Redis Stream key {@code {<stream>:<index>}}.
 *
 * <p>The curly braces are a Redis Cluster hash tag, so the shard's stream key and the owner keys of the
 * consumer groups reading it, {@code {<stream>:<index>}:owner:<group>}, live in one hash slot. Immutable.
 *
 * @param stream the logical stream name, e.g. {@code orders}; not blank, no braces
 * @param index the shard number, {@code 0..shardCount-1}
 */
public record ShardId(String stream, int index) implements Comparable<ShardId> {

    /** Validates the name and the index. */
    public ShardId {
        Objects.requireNonNull(stream, "stream");
        if (stream.isBlank() || stream.indexOf('{') >= 0 || stream.indexOf('}') >= 0) {
            throw new IllegalArgumentException("stream name must be non-blank and contain no braces: '" + stream + "'");
        }
        if (index < 0) {
            throw new IllegalArgumentException("shard index must be >= 0, got " + index + " for stream " + stream);
        }
    }

    /** The Redis key of this shard's stream: {@code {orders:3}}. */
    public String key() {
        return "{" + stream + ":" + index + "}";
    }

    /**
     * The Redis key of this shard's owner hash for consumer group {@code group} (fields {@code owner},
     * {@code epoch}): {@code {orders:3}:owner:billing}. Each group has its own coordinator and its own owner
     * epochs, so each has its own owner key; groups reading the same stream never fence each other.
     *
     * @throws IllegalArgumentException when {@code group} is null or empty
     */
    public String ownerKey(String group) {
        if (group == null || group.isEmpty()) {
            throw new IllegalArgumentException("consumer group of the owner key of " + this + " must be non-empty, was "
                    + (group == null ? "null" : "''"));
        }
        return key() + ":owner:" + group;
    }

    /**
     * Parses a shard key as produced by {@link #key()}.
     *
     * @throws IllegalArgumentException when {@code key} is not of the form {@code {stream:index}}
     */
    public static ShardId fromKey(String key) {
        Objects.requireNonNull(key, "key");
        int colon = key.lastIndexOf(':');
        if (!key.startsWith("{") || !key.endsWith("}") || colon < 2) {
            throw new IllegalArgumentException("not a shard key (expected {stream:index}): '" + key + "'");
        }
        try {
            return new ShardId(key.substring(1, colon), Integer.parseInt(key.substring(colon + 1, key.length() - 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a shard key (index is not a number): '" + key + "'", e);
        }
    }

    /** Orders by stream name, then index. */
    @Override
    public int compareTo(ShardId other) {
        int c = stream.compareTo(other.stream);
        return c != 0 ? c : Integer.compare(index, other.index);
    }

    /** {@code orders:3}. */
    @Override
    public String toString() {
        return stream + ":" + index;
    }
}
