package io.shardline.runtime.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.MemberSubscription;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.api.assignor.ShardSet;
import io.shardline.api.assignor.StreamDescription;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads the input of {@code bin/assign} (docs: {@code docs/assignment-problem.md}) into the assignor's
 * {@link GroupSpec} and {@link ShardDescriber}, checking everything an assignor relies on. Every error names
 * the offending field by its path ({@code streams.orders.shards}, {@code members[1].owned.orders[2]}); syntax
 * errors give line and column. Unknown fields are errors too (they are usually typos). Thread-safe.
 */
public final class AssignmentProblemReader {

    /** Generation of owned shards when the input gives none (the spec's default). */
    public static final int DEFAULT_GENERATION = 0;

    private static final Set<String> ROOT_FIELDS = Set.of("streams", "members");
    private static final Set<String> STREAM_FIELDS = Set.of("shards", "racks");
    private static final Set<String> MEMBER_FIELDS =
            Set.of("memberId", "instanceId", "rack", "subscriptions", "owned", "generation", "weight");

    private final ObjectMapper mapper = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** A parsed problem. */
    public record Problem(GroupSpec group, ShardDescriber shards) {
    }

    /** Parses and checks {@code json}. */
    public Problem read(byte[] json) throws BadInputException {
        JsonNode root;
        try {
            root = mapper.readTree(json);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new BadInputException("input is not valid JSON" + where + ": " + oneLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new BadInputException("input cannot be read: " + oneLine(e.getMessage()));
        }
        if (root == null || root.isMissingNode()) {
            throw new BadInputException("input is empty: expected a JSON object with \"streams\" and \"members\"");
        }
        expectObject(root, "(root)", "an object with \"streams\" and \"members\"");
        rejectUnknownFields(root, "", ROOT_FIELDS);
        ShardDescriber shards = streams(required(root, "streams", ""));
        GroupSpec group = members(required(root, "members", ""), shards);
        return new Problem(group, shards);
    }

    private ShardDescriber streams(JsonNode node) throws BadInputException {
        expectObject(node, "streams", "an object of stream name to {\"shards\": N}");
        TreeMap<String, StreamDescription> streams = new TreeMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String path = "streams." + e.getKey();
            JsonNode s = e.getValue();
            expectObject(s, path, "an object with \"shards\"");
            rejectUnknownFields(s, path + ".", STREAM_FIELDS);
            String shardsPath = path + ".shards";
            int count = integer(required(s, "shards", path + "."), shardsPath);
            if (count < 0) {
                throw BadInputException.at(shardsPath, "shard count must be >= 0, was " + count);
            }
            List<Set<String>> racks = racks(s.get("racks"), path + ".racks", count);
            streams.put(e.getKey(), new StreamDescription(e.getKey(), count, racks));
        }
        return new ShardDescriber(streams);
    }

    private List<Set<String>> racks(JsonNode node, String path, int count) throws BadInputException {
        if (node == null || node.isNull()) {
            return List.of();
        }
        expectArray(node, path, "an array with one array of rack names per shard");
        if (node.isEmpty()) {
            return List.of();
        }
        if (node.size() != count) {
            throw BadInputException.at(path, "has " + node.size() + " entries for " + count + " shards");
        }
        List<Set<String>> racks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            JsonNode shardRacks = node.get(i);
            String shardPath = path + "[" + i + "]";
            if (shardRacks.isNull()) {
                racks.add(Set.of());
                continue;
            }
            expectArray(shardRacks, shardPath, "an array of rack names");
            Set<String> set = new TreeSet<>();
            for (int j = 0; j < shardRacks.size(); j++) {
                set.add(string(shardRacks.get(j), shardPath + "[" + j + "]"));
            }
            racks.add(set);
        }
        return racks;
    }

    private GroupSpec members(JsonNode node, ShardDescriber shards) throws BadInputException {
        expectArray(node, "members", "an array of members");
        List<MemberSubscription> members = new ArrayList<>(node.size());
        Map<String, Integer> memberIds = new HashMap<>();
        Map<String, Integer> instanceIds = new HashMap<>();
        for (int i = 0; i < node.size(); i++) {
            String path = "members[" + i + "]";
            JsonNode m = node.get(i);
            expectObject(m, path, "a member object");
            rejectUnknownFields(m, path + ".", MEMBER_FIELDS);
            String memberId = string(required(m, "memberId", path + "."), path + ".memberId");
            if (memberId.isEmpty()) {
                throw BadInputException.at(path + ".memberId", "must not be empty");
            }
            Integer earlier = memberIds.putIfAbsent(memberId, i);
            if (earlier != null) {
                throw BadInputException.at(path + ".memberId",
                        "duplicate member id '" + memberId + "' (also members[" + earlier + "])");
            }
            Optional<String> instanceId = optionalString(m.get("instanceId"), path + ".instanceId");
            if (instanceId.isPresent()) {
                Integer other = instanceIds.putIfAbsent(instanceId.get(), i);
                if (other != null) {
                    throw BadInputException.at(path + ".instanceId",
                            "duplicate instance id '" + instanceId.get() + "' (also members[" + other + "])");
                }
            }
            Optional<String> rack = optionalString(m.get("rack"), path + ".rack");
            TreeSet<String> subscriptions = subscriptions(required(m, "subscriptions", path + "."),
                    path + ".subscriptions", shards);
            TreeMap<String, ShardSet> owned = owned(m.get("owned"), path + ".owned", shards);
            JsonNode gen = m.get("generation");
            int generation = gen == null || gen.isNull() ? DEFAULT_GENERATION : integer(gen, path + ".generation");
            JsonNode weightNode = m.get("weight");
            int weight = weightNode == null || weightNode.isNull() ? 1 : integer(weightNode, path + ".weight");
            if (weight < 1) {
                throw BadInputException.at(path + ".weight", "must be >= 1, was " + weight);
            }
            members.add(new MemberSubscription(memberId, instanceId, rack, subscriptions, owned, generation, weight));
        }
        return new GroupSpec(members);
    }

    private TreeSet<String> subscriptions(JsonNode node, String path, ShardDescriber shards) throws BadInputException {
        expectArray(node, path, "an array of stream names");
        TreeSet<String> result = new TreeSet<>();
        for (int j = 0; j < node.size(); j++) {
            String stream = string(node.get(j), path + "[" + j + "]");
            if (!shards.has(stream)) {
                throw BadInputException.at(path + "[" + j + "]", "unknown stream '" + stream + "'" + known(shards));
            }
            result.add(stream);
        }
        return result;
    }

    private TreeMap<String, ShardSet> owned(JsonNode node, String path, ShardDescriber shards) throws BadInputException {
        TreeMap<String, ShardSet> result = new TreeMap<>();
        if (node == null || node.isNull()) {
            return result;
        }
        expectObject(node, path, "an object of stream name to an array of shard numbers");
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String stream = e.getKey();
            String streamPath = path + "." + stream;
            if (!shards.has(stream)) {
                throw BadInputException.at(streamPath, "unknown stream '" + stream + "'" + known(shards));
            }
            int count = shards.shardCount(stream);
            JsonNode list = e.getValue();
            expectArray(list, streamPath, "an array of shard numbers");
            int[] owned = new int[list.size()];
            for (int j = 0; j < list.size(); j++) {
                String shardPath = streamPath + "[" + j + "]";
                int shard = integer(list.get(j), shardPath);
                if (shard < 0 || shard >= count) {
                    throw BadInputException.at(shardPath, "shard " + shard + " does not exist (" + stream + " has "
                            + count + (count == 1 ? " shard)" : " shards)"));
                }
                owned[j] = shard;
            }
            result.put(stream, ShardSet.fromArray(owned));
        }
        return result;
    }

    private static JsonNode required(JsonNode parent, String field, String prefix) throws BadInputException {
        JsonNode node = parent.get(field);
        if (node == null || node.isNull()) {
            throw BadInputException.at(prefix + field, "missing (required)");
        }
        return node;
    }

    private static void rejectUnknownFields(JsonNode node, String prefix, Set<String> allowed) throws BadInputException {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!allowed.contains(name)) {
                throw BadInputException.at(prefix + name, "unknown field (expected one of "
                        + String.join(", ", new TreeSet<>(allowed)) + ")");
            }
        }
    }

    private static int integer(JsonNode node, String path) throws BadInputException {
        if (!node.isIntegralNumber()) {
            throw BadInputException.at(path, "expected an integer, got " + describe(node));
        }
        if (!node.canConvertToInt()) {
            throw BadInputException.at(path, "integer out of range: " + node.asText());
        }
        return node.intValue();
    }

    private static String string(JsonNode node, String path) throws BadInputException {
        if (!node.isTextual()) {
            throw BadInputException.at(path, "expected a string, got " + describe(node));
        }
        return node.textValue();
    }

    private static Optional<String> optionalString(JsonNode node, String path) throws BadInputException {
        return node == null || node.isNull() ? Optional.empty() : Optional.of(string(node, path));
    }

    private static void expectObject(JsonNode node, String path, String what) throws BadInputException {
        if (!node.isObject()) {
            throw BadInputException.at(path, "expected " + what + ", got " + describe(node));
        }
    }

    private static void expectArray(JsonNode node, String path, String what) throws BadInputException {
        if (!node.isArray()) {
            throw BadInputException.at(path, "expected " + what + ", got " + describe(node));
        }
    }

    private static String describe(JsonNode node) {
        String text = node.toString();
        if (text.length() > 40) {
            text = text.substring(0, 37) + "...";
        }
        return node.getNodeType().name().toLowerCase(Locale.ROOT) + " " + text;
    }

    private static String known(ShardDescriber shards) {
        if (shards.streams().isEmpty()) {
            return " (no streams are defined)";
        }
        String names = String.join(", ", shards.streams().keySet());
        return " (streams: " + (names.length() > 200 ? names.substring(0, 197) + "..." : names) + ")";
    }

    private static String oneLine(String s) {
        if (s == null) {
            return "";
        }
        String line = s.replaceAll("\\s*\\R\\s*", " ").trim();
        // Jackson names the opening bracket as "(start marker at [Source: ...; line: L, column: C])".
        return line.replaceAll("\\(start marker at \\[Source: [^;]*; line: (\\d+), column: (\\d+)\\]\\)",
                "(opened at line $1, column $2)");
    }
}
