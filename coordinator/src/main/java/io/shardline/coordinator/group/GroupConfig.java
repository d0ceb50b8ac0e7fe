package io.shardline.coordinator.group;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the coordinator needs to know about a group besides its members. Immutable.
 *
 * @param groupId the group name (also the Redis consumer-group name on every shard)
 * @param streams stream name to shard count: the managed shard set
 * @param assignor the name of the group's assignor (e.g. {@code range})
 * @param protocol cooperative (default) or eager
 * @param sessionTimeoutMs a member not heard from for this long is expired
 * @param heartbeatIntervalMs how often members heartbeat; less than the session timeout
 * @param rebalanceTimeoutMs how long a member may take to report a revoked shard drained (Kafka's rebalance
 *     timeout): a member whose revocation is pending longer is fenced, so a hung drain never blocks a shard's
 *     move. {@code 0} reads as {@link #DEFAULT_REBALANCE_TIMEOUT_MS} (configurations persisted before the field
 *     existed)
 * @param racks per stream, the racks (zones) holding each shard's data ({@code racks.get(stream).get(i)} for
 *     shard {@code i}), passed to the assignor so rack-aware ones prefer members in the same zone; a stream not
 *     listed has no rack information
 * @param revision the version of the definition this configuration comes from (a REST listener's stored
 *     revision, a listener file's modification time in ms; {@code 0}: unversioned): the coordinator keeps the
 *     configuration of the highest revision and refuses an older one, so workers that disagree for a moment
 *     (one restarted with a changed listener, another not yet) never put the group back on the old settings.
 *     Not a setting: two configurations that differ only here are the same settings ({@link #sameSettings})
 */
public record GroupConfig(
        String groupId,
        SortedMap<String, Integer> streams,
        String assignor,
        RebalanceProtocol protocol,
        int sessionTimeoutMs,
        int heartbeatIntervalMs,
        int rebalanceTimeoutMs,
        SortedMap<String, List<Set<String>>> racks,
        long revision) {

    /** The rebalance timeout when none is given: the worker default of {@code rebalance.timeout.ms}. */
    public static final int DEFAULT_REBALANCE_TIMEOUT_MS = 30_000;

    /** Validates and copies; errors name the field and the value. */
    public GroupConfig {
        Objects.requireNonNull(groupId, "groupId");
        if (groupId.isBlank()) {
            throw new IllegalArgumentException("group id must not be blank");
        }
        TreeMap<String, Integer> copy = new TreeMap<>();
        streams.forEach((stream, count) -> {
            if (stream.isBlank() || stream.indexOf('{') >= 0 || stream.indexOf('}') >= 0) {
                throw new IllegalArgumentException("group '" + groupId + "': stream name '" + stream
                        + "' must be non-blank and contain no braces");
            }
            if (count == null || count < 0) {
                throw new IllegalArgumentException("group '" + groupId + "': shard count of stream '" + stream
                        + "' must be >= 0, was " + count);
            }
            copy.put(stream, count);
        });
        streams = Collections.unmodifiableSortedMap(copy);
        Objects.requireNonNull(assignor, "assignor");
        if (assignor.isBlank()) {
            throw new IllegalArgumentException("group '" + groupId + "': assignor name must not be blank");
        }
        protocol = Objects.requireNonNullElse(protocol, RebalanceProtocol.COOPERATIVE);
        if (sessionTimeoutMs <= 0) {
            throw new IllegalArgumentException("group '" + groupId + "': session timeout must be > 0 ms, was "
                    + sessionTimeoutMs);
        }
        if (heartbeatIntervalMs <= 0 || heartbeatIntervalMs >= sessionTimeoutMs) {
            throw new IllegalArgumentException("group '" + groupId + "': heartbeat interval must be > 0 and less than "
                    + "the session timeout (" + sessionTimeoutMs + " ms), was " + heartbeatIntervalMs);
        }
        if (rebalanceTimeoutMs == 0) {
            rebalanceTimeoutMs = DEFAULT_REBALANCE_TIMEOUT_MS;
        }
        if (rebalanceTimeoutMs < 0) {
            throw new IllegalArgumentException("group '" + groupId + "': rebalance timeout must be > 0 ms, was "
                    + rebalanceTimeoutMs);
        }
        TreeMap<String, List<Set<String>>> rackCopy = new TreeMap<>();
        if (racks != null) {
            for (Map.Entry<String, List<Set<String>>> e : racks.entrySet()) {
                Integer count = streams.get(e.getKey());
                if (count == null || e.getValue().size() != count) {
                    throw new IllegalArgumentException("group '" + groupId + "': racks of stream '" + e.getKey()
                            + "' must list one entry per shard (" + count + "), has " + e.getValue().size());
                }
                rackCopy.put(e.getKey(), e.getValue().stream().map(r -> (Set<String>) new TreeSet<>(r))
                        .map(Collections::unmodifiableSet).toList());
            }
        }
        racks = Collections.unmodifiableSortedMap(rackCopy);
        if (revision < 0) {
            throw new IllegalArgumentException("group '" + groupId + "': revision must be >= 0, was " + revision);
        }
    }

    /** An unversioned configuration (revision 0). */
    public GroupConfig(String groupId, SortedMap<String, Integer> streams, String assignor, RebalanceProtocol protocol,
            int sessionTimeoutMs, int heartbeatIntervalMs, int rebalanceTimeoutMs,
            SortedMap<String, List<Set<String>>> racks) {
        this(groupId, streams, assignor, protocol, sessionTimeoutMs, heartbeatIntervalMs, rebalanceTimeoutMs, racks, 0);
    }

    /** A group without rack information. */
    public GroupConfig(String groupId, SortedMap<String, Integer> streams, String assignor, RebalanceProtocol protocol,
            int sessionTimeoutMs, int heartbeatIntervalMs, int rebalanceTimeoutMs) {
        this(groupId, streams, assignor, protocol, sessionTimeoutMs, heartbeatIntervalMs, rebalanceTimeoutMs, null);
    }

    /** A group with the {@link #DEFAULT_REBALANCE_TIMEOUT_MS default rebalance timeout}. */
    public GroupConfig(String groupId, SortedMap<String, Integer> streams, String assignor, RebalanceProtocol protocol,
            int sessionTimeoutMs, int heartbeatIntervalMs) {
        this(groupId, streams, assignor, protocol, sessionTimeoutMs, heartbeatIntervalMs,
                DEFAULT_REBALANCE_TIMEOUT_MS);
    }

    /** A cooperative group. */
    public static GroupConfig of(String groupId, Map<String, Integer> streams, String assignor,
            int sessionTimeoutMs, int heartbeatIntervalMs) {
        return new GroupConfig(groupId, new TreeMap<>(streams), assignor, RebalanceProtocol.COOPERATIVE,
                sessionTimeoutMs, heartbeatIntervalMs);
    }

    /** A copy with another shard set; rack information is kept for the streams whose shard count is unchanged. */
    public GroupConfig withStreams(Map<String, Integer> newStreams) {
        TreeMap<String, List<Set<String>>> kept = new TreeMap<>();
        racks.forEach((stream, list) -> {
            if (Integer.valueOf(list.size()).equals(newStreams.get(stream))) {
                kept.put(stream, list);
            }
        });
        return new GroupConfig(groupId, new TreeMap<>(newStreams), assignor, protocol, sessionTimeoutMs,
                heartbeatIntervalMs, rebalanceTimeoutMs, kept, revision);
    }

    /** A copy with another protocol. */
    public GroupConfig withProtocol(RebalanceProtocol newProtocol) {
        return new GroupConfig(groupId, streams, assignor, newProtocol, sessionTimeoutMs, heartbeatIntervalMs,
                rebalanceTimeoutMs, racks, revision);
    }

    /** A copy with another rebalance timeout. */
    public GroupConfig withRebalanceTimeoutMs(int newRebalanceTimeoutMs) {
        return new GroupConfig(groupId, streams, assignor, protocol, sessionTimeoutMs, heartbeatIntervalMs,
                newRebalanceTimeoutMs, racks, revision);
    }

    /** A copy with the given shard racks (see {@link #racks}). */
    public GroupConfig withRacks(Map<String, List<Set<String>>> newRacks) {
        return new GroupConfig(groupId, streams, assignor, protocol, sessionTimeoutMs, heartbeatIntervalMs,
                rebalanceTimeoutMs, new TreeMap<>(newRacks), revision);
    }

    /** A copy from the definition of {@code newRevision}. */
    public GroupConfig withRevision(long newRevision) {
        return new GroupConfig(groupId, streams, assignor, protocol, sessionTimeoutMs, heartbeatIntervalMs,
                rebalanceTimeoutMs, racks, newRevision);
    }

    /** Whether {@code other} has the same settings as this (its revision may differ). */
    public boolean sameSettings(GroupConfig other) {
        return withRevision(0).equals(other.withRevision(0));
    }

    /** The racks holding shard {@code index} of {@code stream}; empty when unknown. */
    public Set<String> racksOf(String stream, int index) {
        List<Set<String>> list = racks.get(stream);
        return list == null || index >= list.size() ? Set.of() : list.get(index);
    }

    /** The shard count of {@code stream}, or -1 when the group does not manage it. */
    public int shardCount(String stream) {
        Integer count = streams.get(stream);
        return count == null ? -1 : count;
    }
}
