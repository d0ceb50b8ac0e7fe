package io.shardline.coordinator.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The settings in which two configurations of one group differ, named by the listener keys that set them
 * ({@code assignor}, {@code session.timeout.ms}, ...), each as {@code key old -> new}: what the audit trail
 * records for a change and what a refusal names. The revision is not a setting and is never listed. Immutable.
 *
 * @param changes one entry per differing setting, in a fixed order
 */
public record GroupConfigDiff(List<String> changes) {

    /** Copies. */
    public GroupConfigDiff {
        changes = List.copyOf(changes);
    }

    /** How {@code to} differs from {@code from}. */
    public static GroupConfigDiff between(GroupConfig from, GroupConfig to) {
        List<String> out = new ArrayList<>();
        add(out, "assignor", from.assignor(), to.assignor());
        add(out, "rebalance.protocol", from.protocol().name().toLowerCase(java.util.Locale.ROOT),
                to.protocol().name().toLowerCase(java.util.Locale.ROOT));
        add(out, "session.timeout.ms", from.sessionTimeoutMs(), to.sessionTimeoutMs());
        add(out, "heartbeat.interval.ms", from.heartbeatIntervalMs(), to.heartbeatIntervalMs());
        add(out, "rebalance.timeout.ms", from.rebalanceTimeoutMs(), to.rebalanceTimeoutMs());
        Set<String> streams = new TreeSet<>(from.streams().keySet());
        streams.addAll(to.streams().keySet());
        for (String stream : streams) {
            add(out, "streams[" + stream + "]", count(from, stream), count(to, stream));
        }
        add(out, "racks (redis.zones)", from.racks(), to.racks());
        return new GroupConfigDiff(out);
    }

    /**
     * The streams whose shard count differs between {@code from} and {@code to} and that both manage: a
     * resharding, which the coordinator does not do (a stream added or removed is a subscription change).
     */
    public static List<String> reshardedStreams(GroupConfig from, GroupConfig to) {
        List<String> out = new ArrayList<>();
        from.streams().forEach((stream, count) -> {
            Integer other = to.streams().get(stream);
            if (other != null && !other.equals(count)) {
                out.add(stream + ": " + count + " -> " + other + " shards");
            }
        });
        return out;
    }

    /** Whether nothing differs. */
    public boolean isEmpty() {
        return changes.isEmpty();
    }

    @Override
    public String toString() {
        return String.join("; ", changes);
    }

    private static String count(GroupConfig config, String stream) {
        int count = config.shardCount(stream);
        return count < 0 ? "(absent)" : Integer.toString(count);
    }

    private static void add(List<String> out, String key, Object from, Object to) {
        if (!Objects.equals(from, to)) {
            out.add(key + " " + from + " -> " + to);
        }
    }
}
