package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.topology.StreamTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the control plane needs to know of a listener's configuration: its handler, its group and the
 * shards of its streams, read from the raw configuration (keys {@code handler}, {@code group} — default the
 * listener name —, {@code streams} = {@code <stream>:<shard count>,...}). Immutable.
 *
 * @param name the listener
 * @param handler the handler alias or class name, empty when not set
 * @param group the consumer group
 * @param shards every shard, in stream order then index order
 */
public record ListenerShape(String name, String handler, String group, List<ShardId> shards) {

    /** Validates and copies. */
    public ListenerShape {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(group, "group");
        shards = List.copyOf(shards);
    }

    /**
     * Reads the shape of listener {@code name} from its raw configuration.
     *
     * @throws ControlPlaneException 400 naming {@code streams} when it is malformed
     */
    public static ListenerShape of(String name, Map<String, String> config) {
        String handler = config.getOrDefault("handler", "").trim();
        String group = config.getOrDefault("group", "").trim();
        List<ShardId> shards = new ArrayList<>();
        String streams = config.getOrDefault("streams", "");
        for (String item : streams.split(",")) {
            String spec = item.trim();
            if (spec.isEmpty()) {
                continue;
            }
            int colon = spec.lastIndexOf(':');
            try {
                String stream = spec.substring(0, colon).trim();
                int count = Integer.parseInt(spec.substring(colon + 1).trim());
                for (int i = 0; i < count; i++) {
                    shards.add(new ShardId(stream, i));
                }
            } catch (RuntimeException e) {
                throw ControlPlaneException.badRequest("config.streams: '" + spec + "' of listener '" + name
                        + "' is not <stream>:<shard count>");
            }
        }
        return new ListenerShape(name, handler, group.isEmpty() ? name : group, shards);
    }

    /**
     * This shape with each stream's shard count taken from its topology ({@link StreamTopology#span}) where
     * {@code topologies} has one: after a change of the shard count a running listener's file still declares the
     * count it started with, while its group reads the stream's shards now (docs/operations.md, "Changing the shard
     * count"). Streams without a topology keep the declared count.
     */
    public ListenerShape following(Map<String, StreamTopology> topologies) {
        List<ShardId> out = new ArrayList<>();
        for (String stream : streams()) {
            StreamTopology topology = topologies.get(stream);
            int count = topology != null ? topology.span() : (int) shardCount(stream);
            for (int i = 0; i < count; i++) {
                out.add(new ShardId(stream, i));
            }
        }
        return new ListenerShape(name, handler, group, out);
    }

    /** The streams, in the order of the definition. */
    public List<String> streams() {
        return shards.stream().map(ShardId::stream).distinct().toList();
    }

    /** Whether {@code shard} is one of the listener's shards. */
    public boolean has(ShardId shard) {
        return shards.contains(shard);
    }

    /** The number of shards of {@code stream} (0 when the listener does not consume it). */
    public long shardCount(String stream) {
        return shards.stream().filter(s -> s.stream().equals(stream)).count();
    }
}
