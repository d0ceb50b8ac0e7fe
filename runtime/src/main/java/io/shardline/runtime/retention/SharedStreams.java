package io.shardline.runtime.retention;

import io.shardline.runtime.topology.StreamSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The rules listeners that consume the same stream must follow together (docs/operations.md, "Retention"), over
 * their raw configurations (keys {@code streams}, {@code group}, {@code ack.mode}, {@code retention.*}):
 * <ul>
 *   <li>{@code ack.mode=ack-delete} only on a stream no other group consumes: deleting an acknowledged entry would
 *       take it from a group that has not read it. The refusal is symmetric: a second group on an ack-delete
 *       stream is refused too, whichever listener comes second;</li>
 *   <li>the retention of a stream is declared by one listener, or by several with the same values: two different
 *       declarations are an error, never a silent pick.</li>
 * </ul>
 * Also turns every listener's declaration into the per-stream {@link Plan}s the leader trims by. Pure and stateless.
 */
public final class SharedStreams {

    /** The listener key of the acknowledgement mode. */
    public static final String ACK_MODE_CONFIG = "ack.mode";

    private SharedStreams() {
    }

    /**
     * One rule broken by a listener's configuration.
     *
     * @param key the key of that listener to change
     * @param value its value
     * @param message what conflicts with what, and what to do
     */
    public record Problem(String key, String value, String message) {

        /** Validates. */
        public Problem {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * The retention of one stream.
     *
     * @param stream the logical stream
     * @param shards its shard count (the largest any listener declares)
     * @param policy its retention
     * @param declaredBy the listener that declared it
     */
    public record Plan(String stream, int shards, RetentionPolicy policy, String declaredBy) {
    }

    /**
     * The plans of every stream with a retention, and the streams left untrimmed because their declarations
     * conflict (one message each).
     */
    public record Plans(List<Plan> plans, List<String> conflicts) {

        /** Copies. */
        public Plans {
            plans = List.copyOf(plans);
            conflicts = List.copyOf(conflicts);
        }
    }

    /** The rules {@code config} of listener {@code name} breaks together with the {@code others} (by name). */
    public static List<Problem> problems(String name, Map<String, String> config, Map<String, Map<String, String>> others) {
        List<Problem> out = new ArrayList<>();
        Map<String, Integer> mine = streams(config);
        String group = group(name, config);
        boolean ackDelete = ackDelete(config);
        RetentionPolicy retention = RetentionPolicy.of(config);
        new TreeMap<>(others).forEach((other, theirs) -> {
            if (other.equals(name)) {
                return;
            }
            String theirGroup = group(other, theirs);
            for (String stream : streams(theirs).keySet()) {
                if (!mine.containsKey(stream)) {
                    continue;
                }
                if (!theirGroup.equals(group) && ackDelete) {
                    out.add(new Problem(ACK_MODE_CONFIG, "ack-delete", "stream '" + stream + "' is also consumed by group '"
                            + theirGroup + "' (listener '" + other + "'): ack-delete would delete entries that group has "
                            + "not read. Use ack.mode=ack with retention.max.length or retention.max.age.ms (the leader "
                            + "trims only what every group has read), or consume the stream in one group"));
                } else if (!theirGroup.equals(group) && ackDelete(theirs)) {
                    out.add(new Problem("streams", config.get("streams"), "stream '" + stream + "' is consumed with "
                            + "ack.mode=ack-delete by listener '" + other + "' (group '" + theirGroup + "'), which deletes "
                            + "every entry it acknowledges: group '" + group + "' would miss them. Change listener '"
                            + other + "' to ack.mode=ack (with retention.max.length or retention.max.age.ms) first, or "
                            + "use group '" + theirGroup + "'"));
                }
                RetentionPolicy theirRetention = RetentionPolicy.of(theirs);
                if (!retention.isNone() && !theirRetention.isNone() && !retention.equals(theirRetention)) {
                    String key = retention.maxLength() != theirRetention.maxLength()
                            ? RetentionPolicy.MAX_LENGTH_CONFIG : RetentionPolicy.MAX_AGE_CONFIG;
                    out.add(new Problem(key, config.get(key), "stream '" + stream + "' has retention "
                            + theirRetention.describe() + " declared by listener '" + other + "': listeners sharing a "
                            + "stream declare the same retention, or only one of them declares it"));
                }
            }
        });
        return out;
    }

    /** The retention plan of every stream some listener declares a retention for, by stream name. */
    public static Plans plans(Map<String, Map<String, String>> listeners) {
        Map<String, Plan> plans = new TreeMap<>();
        Map<String, Integer> shards = new TreeMap<>();
        Map<String, String> conflicts = new LinkedHashMap<>();
        new TreeMap<>(listeners).forEach((name, config) -> {
            RetentionPolicy policy = RetentionPolicy.of(config);
            streams(config).forEach((stream, count) -> {
                shards.merge(stream, count, Math::max);
                if (policy.isNone() || conflicts.containsKey(stream)) {
                    return;
                }
                Plan before = plans.get(stream);
                if (before == null) {
                    plans.put(stream, new Plan(stream, count, policy, name));
                } else if (!before.policy().equals(policy)) {
                    plans.remove(stream);
                    conflicts.put(stream, "stream '" + stream + "' is not trimmed: listener '" + before.declaredBy()
                            + "' declares " + before.policy().describe() + " and listener '" + name + "' declares "
                            + policy.describe() + "; make them agree or remove one");
                }
            });
        });
        List<Plan> out = plans.values().stream()
                .map(p -> new Plan(p.stream(), shards.get(p.stream()), p.policy(), p.declaredBy())).toList();
        return new Plans(out, List.copyOf(conflicts.values()));
    }

    private static String group(String name, Map<String, String> config) {
        String group = config.get("group");
        return group == null || group.isBlank() ? name : group.trim();
    }

    private static boolean ackDelete(Map<String, String> config) {
        return "ack-delete".equals(String.valueOf(config.get(ACK_MODE_CONFIG)).trim());
    }

    private static Map<String, Integer> streams(Map<String, String> config) {
        Map<String, Integer> out = new TreeMap<>();
        String streams = config.get("streams");
        if (streams == null) {
            return out;
        }
        for (String item : streams.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            try {
                StreamSpec spec = StreamSpec.parse(item.trim());
                out.merge(spec.name(), spec.shardCount(), Math::max);
            } catch (IllegalArgumentException e) {
                // reported by the listener definition's validation
            }
        }
        return out;
    }
}
