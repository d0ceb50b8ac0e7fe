package io.shardline.producer.routing;

import java.util.Map;
import java.util.Objects;

/**
 * What a producer routes with, read from a stream's topology record {@link #key(String) {<stream>:topology}}
 * (docs/protocol.md, section 8b): the shard count a key is hashed over ({@code shards}) and the routing epoch the
 * writes are checked under ({@code routing_epoch}). The other fields of the record (state, history, a change's
 * details) are the worker runtime's. Immutable.
 *
 * @param stream the logical stream
 * @param shards the shard count producers route with now
 * @param routingEpoch the routing epoch of that layout
 */
public record RoutingTopology(String stream, int shards, long routingEpoch) {

    /** Validates. */
    public RoutingTopology {
        Objects.requireNonNull(stream, "stream");
        if (shards < 1) {
            throw new IllegalArgumentException("topology of stream '" + stream + "': shards must be >= 1, was " + shards);
        }
        if (routingEpoch < 1) {
            throw new IllegalArgumentException("topology of stream '" + stream + "': routing_epoch must be >= 1, was "
                    + routingEpoch);
        }
    }

    /** The Redis key of {@code stream}'s topology: in the stream's key space, in a slot of its own. */
    public static String key(String stream) {
        return "{" + stream + ":topology}";
    }

    /**
     * The routing fields of a topology hash.
     *
     * @throws IllegalStateException naming the key and the field when one is missing or not a number
     */
    public static RoutingTopology fromHash(String stream, Map<String, String> fields) {
        try {
            return new RoutingTopology(stream, Integer.parseInt(require(stream, fields, "shards").trim()),
                    Long.parseLong(require(stream, fields, "routing_epoch").trim()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the topology of stream '" + stream + "' (" + key(stream)
                    + ") is not readable: " + e.getMessage(), e);
        }
    }

    private static String require(String stream, Map<String, String> fields, String field) {
        String value = fields.get(field);
        if (value == null) {
            throw new IllegalStateException("the topology of stream '" + stream + "' (" + key(stream)
                    + ") has no field '" + field + "'");
        }
        return value;
    }
}
