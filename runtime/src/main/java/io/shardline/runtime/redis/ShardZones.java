package io.shardline.runtime.redis;

import io.shardline.api.handler.ShardId;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The zones holding each shard's data, from {@code redis.zones}: a single Redis is in one zone; in a Redis Cluster
 * a shard is in the zones of the primary and replicas serving its key's hash slot ({@code CLUSTER SLOTS}). What
 * the rack-aware assignors need to prefer members in the shard's zone (Kafka's KIP-881). Immutable; the slot map
 * is read on each call to {@link #racks}.
 */
public final class ShardZones {

    private static final Logger LOG = LoggerFactory.getLogger(ShardZones.class);
    private static final int SLOTS = 16_384;

    private final RedisClient redis;
    private final String singleZone;
    private final Map<String, String> nodeZones;

    /**
     * Zones from the {@code redis.zones} entries (one bare zone, or {@code host:port=zone} each; validated by the
     * worker configuration).
     */
    public ShardZones(RedisClient redis, List<String> entries) {
        this.redis = Objects.requireNonNull(redis, "redis");
        Map<String, String> nodes = new HashMap<>();
        String single = null;
        for (String raw : entries) {
            String entry = raw.trim();
            int eq = entry.lastIndexOf('=');
            if (eq < 0) {
                single = entry;
            } else {
                nodes.put(entry.substring(0, eq).trim(), entry.substring(eq + 1).trim());
            }
        }
        this.singleZone = single;
        this.nodeZones = Map.copyOf(nodes);
    }

    /** True when {@code redis.zones} says anything. */
    public boolean configured() {
        return singleZone != null || !nodeZones.isEmpty();
    }

    /**
     * For each stream, the zones of each of its shards ({@code racks.get(stream).get(i)}); empty when no zones are
     * configured. A shard whose nodes have no configured zone gets an empty set.
     */
    public Future<SortedMap<String, List<Set<String>>>> racks(Map<String, Integer> streams) {
        if (!configured()) {
            return Future.succeededFuture(Collections.emptySortedMap());
        }
        if (!redis.config().cluster()) {
            Set<String> zone = singleZone == null ? Set.of() : Set.of(singleZone);
            TreeMap<String, List<Set<String>>> out = new TreeMap<>();
            streams.forEach((stream, count) -> out.put(stream, Collections.nCopies(count, zone)));
            return Future.succeededFuture(out);
        }
        return redis.send(Request.cmd(Command.CLUSTER).arg("SLOTS")).map(this::slotZones).map(bySlot -> {
            TreeMap<String, List<Set<String>>> out = new TreeMap<>();
            streams.forEach((stream, count) -> {
                List<Set<String>> shards = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    Set<String> zones = bySlot[slot(new ShardId(stream, i).key())];
                    shards.add(zones == null ? Set.of() : zones);
                }
                out.put(stream, shards);
            });
            return out;
        });
    }

    /** The zones of each slot from a {@code CLUSTER SLOTS} reply: [start, end, [host, port, id], replicas...]. */
    private Set<String>[] slotZones(Response reply) {
        @SuppressWarnings("unchecked")
        Set<String>[] bySlot = new Set[SLOTS];
        for (int r = 0; r < reply.size(); r++) {
            Response range = reply.get(r);
            TreeSet<String> zones = new TreeSet<>();
            for (int n = 2; n < range.size(); n++) {
                String node = range.get(n).get(0).toString() + ":" + range.get(n).get(1).toInteger();
                String zone = nodeZones.get(node);
                if (zone == null) {
                    LOG.warn("Redis node {} has no zone in redis.zones; its shards count as zone-unknown", node);
                } else {
                    zones.add(zone);
                }
            }
            Set<String> frozen = Collections.unmodifiableSet(zones);
            for (int s = range.get(0).toInteger(); s <= range.get(1).toInteger(); s++) {
                bySlot[s] = frozen;
            }
        }
        return bySlot;
    }

    /** The Redis Cluster hash slot of {@code key} (CRC16-XMODEM of its hash tag, or of the key without one). */
    static int slot(String key) {
        int open = key.indexOf('{');
        if (open >= 0) {
            int close = key.indexOf('}', open + 1);
            if (close > open + 1) {
                key = key.substring(open + 1, close);
            }
        }
        int crc = 0;
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            crc ^= (b & 0xff) << 8;
            for (int i = 0; i < 8; i++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            crc &= 0xffff;
        }
        return crc % SLOTS;
    }
}
