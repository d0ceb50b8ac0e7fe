package io.shardline.chaos;

import io.shardline.producer.routing.RoutingTopology;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads what Redis holds for the chaos stream: every shard's entries, the group's pending entries and
 * last-delivered id ({@code XRANGE}, {@code XPENDING}, {@code XINFO GROUPS}), the topology's shard count and the
 * dead-letter count. Shard keys that do not exist (retired by a resharding) read as empty, without a group.
 * Blocking; one probe connection per call.
 */
final class RedisSnapshot {

    private RedisSnapshot() {
    }

    /** Every shard's state, by index. */
    static Map<Integer, ShardState> shards(String host, int port, String stream, String group, int shards)
            throws IOException {
        Map<Integer, ShardState> states = new TreeMap<>();
        try (RespProbe probe = RespProbe.connect(host, port, 30_000)) {
            for (int i = 0; i < shards; i++) {
                String key = "{" + stream + ":" + i + "}";
                List<EntryId> entries = new ArrayList<>();
                for (Object entry : list(probe.call("XRANGE", key, "-", "+"))) {
                    entries.add(EntryId.parse((String) list(entry).get(0)));
                }
                EntryId lastDelivered = lastDelivered(probe, key, group);
                Set<EntryId> pending = new HashSet<>();
                if (lastDelivered != null) {
                    for (Object p : list(probe.call("XPENDING", key, group, "-", "+", "1000000000"))) {
                        pending.add(EntryId.parse((String) list(p).get(0)));
                    }
                }
                states.put(i, new ShardState(i, entries, pending, lastDelivered));
            }
        }
        return states;
    }

    /** True when every shard's group has delivered everything and nothing is pending. */
    static boolean drained(String host, int port, String stream, String group, int shards) throws IOException {
        try (RespProbe probe = RespProbe.connect(host, port, 5_000)) {
            for (int i = 0; i < shards; i++) {
                String key = "{" + stream + ":" + i + "}";
                List<Object> last = list(probe.call("XREVRANGE", key, "+", "-", "COUNT", "1"));
                if (last.isEmpty()) {
                    continue;
                }
                EntryId newest = EntryId.parse((String) list(last.get(0)).get(0));
                EntryId delivered = lastDelivered(probe, key, group);
                Object pending = delivered == null ? null : list(probe.call("XPENDING", key, group)).get(0);
                if (delivered == null || delivered.compareTo(newest) < 0 || !Long.valueOf(0).equals(pending)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** True when the group has delivered at least one entry of every shard (the listener runs everywhere). */
    static boolean started(String host, int port, String stream, String group, int shards) throws IOException {
        try (RespProbe probe = RespProbe.connect(host, port, 5_000)) {
            for (int i = 0; i < shards; i++) {
                EntryId delivered = lastDelivered(probe, "{" + stream + ":" + i + "}", group);
                if (delivered == null || delivered.ms() == 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The shard count of the stream's topology record ({@code {<stream>:topology}}). */
    static int topologyShards(String host, int port, String stream) throws IOException {
        try (RespProbe probe = RespProbe.connect(host, port, 5_000)) {
            return Integer.parseInt(String.valueOf(probe.call("HGET", RoutingTopology.key(stream), "shards")));
        }
    }

    /** The number of entries in the dead-letter stream(s) named like {@code deadLetters}. */
    static long deadLettered(String host, int port, String deadLetters) throws IOException {
        long n = 0;
        try (RespProbe probe = RespProbe.connect(host, port, 5_000)) {
            for (Object key : list(probe.call("KEYS", "*" + deadLetters + "*"))) {
                if ("stream".equals(probe.call("TYPE", (String) key))) {
                    n += (Long) probe.call("XLEN", (String) key);
                }
            }
        }
        return n;
    }

    private static EntryId lastDelivered(RespProbe probe, String key, String group) throws IOException {
        List<Object> groups;
        try {
            groups = list(probe.call("XINFO", "GROUPS", key));
        } catch (RespProbe.RedisErrorReply e) {
            return null; // no such key
        }
        for (Object g : groups) {
            List<Object> fields = list(g);
            Map<String, Object> info = new TreeMap<>();
            for (int i = 0; i + 1 < fields.size(); i += 2) {
                info.put((String) fields.get(i), fields.get(i + 1));
            }
            if (group.equals(info.get("name"))) {
                return EntryId.parse((String) info.get("last-delivered-id"));
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object reply) {
        return reply == null ? List.of() : (List<Object>) reply;
    }
}
