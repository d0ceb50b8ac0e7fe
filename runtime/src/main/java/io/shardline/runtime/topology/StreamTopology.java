package io.shardline.runtime.topology;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One logical stream's topology as stored in the hash {@link #key(String) {<stream>:topology}}: the fields
 * {@code format} (1), {@code stream}, {@code shards}, {@code routing_epoch}, {@code state}, and while a change
 * runs {@code target_shards}, {@code from_shards}, {@code layouts}, {@code step}, {@code progress} and
 * {@code cutover} (a JSON object from shard index to the entry id where its records before the current routing
 * epoch end), and {@code history} (a JSON array of the last {@value #HISTORY} changes). Immutable.
 *
 * @param stream the logical stream
 * @param shards the shard count producers and groups use now
 * @param routingEpoch rises with every change of the routing; producers send it with every write
 * @param state the state
 * @param targetShards the shard count a change goes to, or 0 when {@link TopologyState#STABLE}
 * @param cutover per old shard index, the entry id where its old-layout records end (empty when stable)
 * @param history the last changes, oldest first
 * @param fromShards while a change runs: the count before it (the last stable one), else 0
 * @param layouts while a change runs: routing epoch to shard count from the stable epoch on, else empty
 * @param progress while a change runs: the leader's last report of what each group waits for (JSON), else null
 */
public record StreamTopology(String stream, int shards, long routingEpoch, TopologyState state, int targetShards,
                             SortedMap<Integer, String> cutover, List<Change> history, int fromShards,
                             SortedMap<Long, Integer> layouts, String progress) {

    /** How many changes the history keeps. */
    public static final int HISTORY = 10;

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One change of the topology.
     *
     * @param routingEpoch the routing epoch it started
     * @param shards the shard count after it
     * @param state the state it entered
     * @param atMs when (the Redis server's time)
     * @param reason who or what made it
     */
    public record Change(long routingEpoch, int shards, String state, long atMs, String reason) {
    }

    /** Validates and copies. */
    public StreamTopology {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(state, "state");
        cutover = new TreeMap<>(cutover);
        history = List.copyOf(history);
        layouts = new TreeMap<>(layouts);
        if (shards < 1) {
            throw new IllegalArgumentException("topology of stream '" + stream + "': shards must be >= 1, was " + shards);
        }
    }

    /**
     * How many shards are live: the count producers use when {@link TopologyState#STABLE}; while a change runs the
     * highest count of its chain, since shards beyond the new count are read until drained and new ones are owned
     * before their records are read (docs/protocol.md, section 8). Every shard index below it may hold records a
     * group has not handled yet.
     */
    public int span() {
        int span = shards;
        for (int count : layouts.values()) {
            span = Math.max(span, count);
        }
        return span;
    }

    /** The Redis key of {@code stream}'s topology: in the stream's key space, in a slot of its own. */
    public static String key(String stream) {
        return "{" + stream + ":topology}";
    }

    /**
     * The topology stored in {@code fields} (a {@code HGETALL} of its key).
     *
     * @throws IllegalStateException naming the key and the field when the hash is not a topology
     */
    public static StreamTopology fromHash(String stream, Map<String, String> fields) {
        try {
            SortedMap<Integer, String> cutover = new TreeMap<>();
            String cut = fields.get("cutover");
            if (cut != null && !cut.isBlank()) {
                JSON.readValue(cut, new TypeReference<Map<String, String>>() {
                }).forEach((k, v) -> cutover.put(Integer.parseInt(k), v));
            }
            String hist = fields.getOrDefault("history", "[]");
            List<Change> history = JSON.readValue(hist, new TypeReference<List<Map<String, Object>>>() {
            }).stream().map(StreamTopology::change).toList();
            return new StreamTopology(stream, Integer.parseInt(require(stream, fields, "shards")),
                    Long.parseLong(require(stream, fields, "routing_epoch")), TopologyState.parse(fields.get("state")),
                    Integer.parseInt(fields.getOrDefault("target_shards", "0")), cutover, history,
                    Integer.parseInt(fields.getOrDefault("from_shards", "0")), layouts(fields.get("layouts")),
                    fields.get("progress"));
        } catch (JsonProcessingException | NumberFormatException e) {
            throw new IllegalStateException("the topology of stream '" + stream + "' (" + key(stream)
                    + ") is not readable: " + e.getMessage(), e);
        }
    }

    private static SortedMap<Long, Integer> layouts(String text) throws JsonProcessingException {
        SortedMap<Long, Integer> out = new TreeMap<>();
        if (text != null && !text.isBlank()) {
            JSON.readValue(text, new TypeReference<Map<String, Integer>>() {
            }).forEach((k, v) -> out.put(Long.parseLong(k), v));
        }
        return out;
    }

    private static Change change(Map<String, Object> m) {
        return new Change(((Number) m.getOrDefault("routing_epoch", 0)).longValue(),
                ((Number) m.getOrDefault("shards", 0)).intValue(), String.valueOf(m.get("state")),
                ((Number) m.getOrDefault("at_ms", 0)).longValue(), String.valueOf(m.getOrDefault("reason", "")));
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
