package io.shardline.benchmarks.reshard;

import io.shardline.producer.routing.ShardRouting;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What {@link ReshardBench} sees of the shards' routing hashes while a change from epoch 1 to 2 runs (docs/protocol.md
 * section 8b), polled every 10 ms: each old shard's cutover entry, when each shard's barrier was first seen released
 * for the group, and which shards the group ever waited at (its {@code waiting:<group>} field, written by a read
 * that stopped at the cutover). The split of a key's wait into the leader's part and the member's part comes from it.
 * Not thread-safe: one polling thread.
 */
final class RoutingWatch {

    /** Old shard to its {@code cutover:2} entry id ({@code 0-0} for none). */
    final Map<Integer, String> cutovers = new TreeMap<>();
    /** Shard to the wall-clock ms its {@code cutover:2} was first seen (it was flipped). */
    final Map<Integer, Long> flippedAt = new TreeMap<>();
    /** Shard to the wall-clock ms its {@code released:<group>} was first seen at 2 or above. */
    final Map<Integer, Long> releasedAt = new TreeMap<>();
    /** Shards whose {@code waiting:<group>} field was seen. */
    final Set<Integer> waited = new HashSet<>();

    private final String stream;
    private final String group;
    private final int shards;

    RoutingWatch(String stream, String group, int shards) {
        this.stream = stream;
        this.group = group;
        this.shards = shards;
    }

    /** One poll of every shard's routing hash. */
    void poll(RespProbe probe) throws IOException {
        for (int i = 0; i < shards; i++) {
            Object reply = probe.call("HMGET", ShardRouting.routingKey(stream, i), "cutover:2", "released:" + group,
                    "waiting:" + group);
            if (!(reply instanceof List<?> fields)) {
                continue;
            }
            if (fields.get(0) instanceof String id) {
                cutovers.putIfAbsent(i, id);
                flippedAt.putIfAbsent(i, System.currentTimeMillis());
            }
            if (fields.get(1) instanceof String released && Long.parseLong(released) >= 2) {
                releasedAt.putIfAbsent(i, System.currentTimeMillis());
            }
            if (fields.get(2) instanceof String) {
                waited.add(i);
            }
        }
    }
}
