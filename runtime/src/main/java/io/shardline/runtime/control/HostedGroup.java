package io.shardline.runtime.control;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A group as the leader's coordinator hosts it (from {@code GroupAdminWire}'s answers). Immutable.
 *
 * @param group the group id
 * @param streams its streams and their shard counts, sorted by stream
 * @param members how many members it has (a static member's reservation counts)
 * @param owned per stream, how many of its shards a member holds as assigned, not revoking (all of them once the
 *              group's rebalance settled); a stream missing here (an answer of an older leader) counts as all owned
 */
public record HostedGroup(String group, Map<String, Integer> streams, int members, Map<String, Integer> owned) {

    /** Validates and copies. */
    public HostedGroup {
        Objects.requireNonNull(group, "group");
        streams = Map.copyOf(new TreeMap<>(streams));
        owned = Map.copyOf(new TreeMap<>(owned));
    }

    /** How many of {@code stream}'s shards a member holds as assigned (all of them when not reported). */
    public int owned(String stream) {
        return owned.getOrDefault(stream, streams.getOrDefault(stream, 0));
    }

    /** The groups of a list answer. */
    static List<HostedGroup> listFromJson(JsonObject reply) {
        List<HostedGroup> out = new ArrayList<>();
        for (Object o : reply.getJsonArray("groups", new JsonArray())) {
            JsonObject g = (JsonObject) o;
            Map<String, Integer> streams = new TreeMap<>();
            g.getJsonObject("streams", new JsonObject()).forEach(e -> streams.put(e.getKey(),
                    ((Number) e.getValue()).intValue()));
            Map<String, Integer> owned = new TreeMap<>();
            g.getJsonObject("owned", new JsonObject()).forEach(e -> owned.put(e.getKey(),
                    ((Number) e.getValue()).intValue()));
            out.add(new HostedGroup(g.getString("group"), streams, g.getInteger("members", 0), owned));
        }
        return out;
    }

    /**
     * The coordinator's answer to a deletion.
     *
     * @param outcome {@code DELETED}, {@code NOT_FOUND} or {@code HAS_MEMBERS}
     * @param members the members that keep the group (with {@code HAS_MEMBERS})
     */
    public record Deletion(String outcome, List<String> members) {

        /** Validates and copies. */
        public Deletion {
            Objects.requireNonNull(outcome, "outcome");
            members = List.copyOf(members);
        }

        static Deletion fromJson(JsonObject reply) {
            List<String> members = new ArrayList<>();
            reply.getJsonArray("members", new JsonArray()).forEach(m -> members.add((String) m));
            return new Deletion(reply.getString("outcome", "NOT_FOUND"), members);
        }
    }
}
