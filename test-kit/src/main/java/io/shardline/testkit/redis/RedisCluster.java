package io.shardline.testkit.redis;

import io.shardline.testkit.net.FreePorts;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A real Redis Cluster of {@code redis-server} child processes on free loopback ports, for tests: a given
 * number of primaries (each optionally with one replica), each started with {@code --cluster-enabled yes}, its own cluster bus port
 * and its {@code nodes.conf} in its own temporary directory, then formed from Java: every node takes an equal
 * range of the 16384 slots ({@code CLUSTER ADDSLOTSRANGE}) and meets the first one ({@code CLUSTER MEET}).
 * A replica follows its primary ({@code CLUSTER REPLICATE}) and takes over when the primary fails, after
 * {@link #NODE_TIMEOUT_MS}. {@link #start(int, boolean)} returns once every node reports {@code cluster_state:ok},
 * all agree on the slot map and every replica's link to its primary is up.
 *
 * <p>Every process is stopped by its pid by {@link #close()}, and also when forming the cluster fails. A node
 * killed with {@link #node(int)}{@code .kill()} and started again keeps its port, bus port and cluster identity
 * (its {@code nodes.conf}) but loses its data (no persistence): the cluster is whole again after
 * {@link #awaitHealthy(Duration)}. Thread-safe.
 */
public final class RedisCluster implements AutoCloseable {

    /** The number of hash slots of a Redis Cluster. */
    public static final int SLOTS = 16_384;

    /** How long forming (or healing) the cluster may take. */
    static final Duration FORM_TIMEOUT = Duration.ofSeconds(30);

    /** {@code cluster-node-timeout}: short enough for tests, long enough not to flap on a loaded machine. */
    static final int NODE_TIMEOUT_MS = 5_000;

    private final List<RedisServer> nodes;
    private final List<RedisServer> primaries;

    private RedisCluster(List<RedisServer> nodes, int primaries) {
        this.nodes = List.copyOf(nodes);
        this.primaries = this.nodes.subList(0, primaries);
    }

    /** {@link #start(int, boolean)} without replicas. */
    public static RedisCluster start(int primaries) {
        return start(primaries, false);
    }

    /**
     * Starts {@code primaries} nodes and forms a cluster of them.
     *
     * @param replicas true to give every primary one replica (node {@code primaries + i} follows node {@code i})
     * @throws RedisUnavailableException when no redis-server binary is installed
     * @throws IllegalStateException when the cluster is not formed within {@link #FORM_TIMEOUT}
     */
    public static RedisCluster start(int primaries, boolean replicas) {
        if (primaries < 1 || primaries > 16) {
            throw new IllegalArgumentException("a test cluster has 1 to 16 primaries, not " + primaries);
        }
        List<RedisServer> started = new ArrayList<>();
        try {
            for (int i = 0; i < (replicas ? 2 * primaries : primaries); i++) {
                started.add(RedisServer.start(false, List.of(
                        "--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes.conf",
                        "--cluster-port", Integer.toString(FreePorts.one()),
                        "--cluster-node-timeout", Integer.toString(NODE_TIMEOUT_MS),
                        "--cluster-announce-ip", "127.0.0.1")));
            }
            RedisCluster cluster = new RedisCluster(started, primaries);
            cluster.form();
            cluster.awaitHealthy(FORM_TIMEOUT);
            return cluster;
        } catch (RuntimeException e) {
            started.forEach(RedisServer::close);
            throw e;
        }
    }

    /** The nodes: the primaries in the order of their slot ranges (node 0 has the lowest slots), then their replicas. */
    public List<RedisServer> nodes() {
        return nodes;
    }

    /** Node {@code i}. */
    public RedisServer node(int i) {
        return nodes.get(i);
    }

    /** The {@code redis://127.0.0.1:<port>} of every node started as a primary, as seeds for a cluster client. */
    public List<String> seedUris() {
        return primaries.stream().map(RedisServer::uri).toList();
    }

    /** The seeds as one comma-separated value, as {@code redis.cluster.urls} takes them. */
    public String seedUriList() {
        return String.join(",", seedUris());
    }

    /** The hash slot of {@code key} ({@code CLUSTER KEYSLOT}). */
    public int slotOf(String key) {
        return withProbe(live(), probe -> ((Long) probe.call("CLUSTER", "KEYSLOT", key)).intValue());
    }

    /** The node that serves {@code key}, by the slot map. */
    public RedisServer ownerOf(String key) {
        int slot = slotOf(key);
        for (SlotRange range : slotMap(live())) {
            if (slot >= range.start() && slot <= range.end()) {
                return nodes.stream().filter(n -> n.port() == range.port()).findFirst()
                        .orElseThrow(() -> new IllegalStateException("slot " + slot + " is served by unknown port "
                                + range.port()));
            }
        }
        throw new IllegalStateException("slot " + slot + " of '" + key + "' is not assigned");
    }

    /**
     * Waits until every running node reports {@code cluster_state:ok}, knows all nodes, sees the same slot map
     * covering all slots with running primaries, and every running replica's link to its primary is up. A node
     * the test killed is skipped: a replica must have taken over its slots (or it must be started again).
     *
     * @throws IllegalStateException with the last state seen when that does not happen within {@code timeout}
     */
    public void awaitHealthy(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "not checked";
        while (true) {
            Optional<String> problem = problem();
            if (problem.isEmpty()) {
                return;
            }
            last = problem.get();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Redis Cluster " + seedUris() + " not healthy within " + timeout
                        + ": " + last);
            }
            pause();
        }
    }

    /** Deletes every key and every function library on every running primary (replicas follow). */
    public void flushAll() {
        for (RedisServer node : nodes) {
            if (!node.isRunning()) {
                continue;
            }
            withProbe(node, probe -> {
                if (!((String) probe.call("INFO", "replication")).contains("role:master")) {
                    return null;
                }
                probe.call("FLUSHALL");
                probe.call("FUNCTION", "FLUSH");
                return null;
            });
        }
    }

    /** Stops every node by its pid and deletes their directories. */
    @Override
    public void close() {
        nodes.forEach(RedisServer::close);
    }

    @Override
    public String toString() {
        return "redis-cluster" + seedUris();
    }

    private void form() {
        int n = primaries.size();
        for (int i = 0; i < n; i++) {
            int start = i * SLOTS / n;
            int end = (i + 1) * SLOTS / n - 1;
            withProbe(nodes.get(i), probe -> probe.call("CLUSTER", "ADDSLOTSRANGE",
                    Integer.toString(start), Integer.toString(end)));
        }
        RedisServer first = nodes.get(0);
        for (int i = 1; i < nodes.size(); i++) {
            RedisServer other = nodes.get(i);
            String busPort = withProbe(other, probe -> String.valueOf(configGet(probe, "cluster-port")));
            withProbe(first, probe -> probe.call("CLUSTER", "MEET", other.host(), Integer.toString(other.port()),
                    busPort));
        }
        for (int i = n; i < nodes.size(); i++) {
            String primaryId = withProbe(nodes.get(i - n), probe -> (String) probe.call("CLUSTER", "MYID"));
            RedisServer replica = nodes.get(i);
            awaitKnown(replica, primaryId);
            withProbe(replica, probe -> probe.call("CLUSTER", "REPLICATE", primaryId));
        }
    }

    private static void awaitKnown(RedisServer node, String nodeId) {
        long deadline = System.nanoTime() + FORM_TIMEOUT.toNanos();
        while (!withProbe(node, probe -> (String) probe.call("CLUSTER", "NODES")).contains(nodeId)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(node + " did not learn of node " + nodeId + " within " + FORM_TIMEOUT);
            }
            pause();
        }
    }

    private Optional<String> problem() {
        List<SlotRange> reference = null;
        for (RedisServer node : nodes) {
            if (!node.isRunning()) {
                continue; // killed by the test: the others must cover its slots (a replica took over)
            }
            try (RespProbe probe = node.probe()) {
                String replication = (String) probe.call("INFO", "replication");
                if (replication.contains("role:slave") && !replication.contains("master_link_status:up")) {
                    return Optional.of(node + " is a replica whose link to its primary is not up");
                }
                String info = (String) probe.call("CLUSTER", "INFO");
                if (!info.contains("cluster_state:ok")) {
                    return Optional.of(node + " reports " + firstLine(info));
                }
                if (!info.contains("cluster_known_nodes:" + nodes.size() + "\r")) {
                    return Optional.of(node + " does not know all " + nodes.size() + " nodes yet");
                }
                List<SlotRange> map = slotMap(probe);
                Optional<SlotRange> dead = map.stream().filter(r -> nodes.stream()
                        .noneMatch(n -> n.isRunning() && n.port() == r.port())).findFirst();
                if (dead.isPresent()) {
                    return Optional.of(node + " still maps slots " + dead.get() + " to a stopped node");
                }
                if (map.stream().mapToInt(r -> r.end() - r.start() + 1).sum() != SLOTS) {
                    return Optional.of(node + " sees a slot map that does not cover all slots: " + map);
                }
                if (reference == null) {
                    reference = map;
                } else if (!reference.equals(map)) {
                    return Optional.of("nodes disagree on the slot map: " + reference + " vs " + map + " at " + node);
                }
            } catch (IOException e) {
                return Optional.of(node + " does not answer: " + e.getMessage());
            }
        }
        return Optional.empty();
    }

    private RedisServer live() {
        return nodes.stream().filter(RedisServer::isRunning).findFirst()
                .orElseThrow(() -> new IllegalStateException("no node of " + this + " is running"));
    }

    private List<SlotRange> slotMap(RedisServer node) {
        return withProbe(node, RedisCluster::slotMap);
    }

    private static List<SlotRange> slotMap(RespProbe probe) throws IOException {
        List<SlotRange> ranges = new ArrayList<>();
        for (Object item : (List<?>) probe.call("CLUSTER", "SLOTS")) {
            List<?> range = (List<?>) item;
            List<?> primary = (List<?>) range.get(2);
            ranges.add(new SlotRange(((Long) range.get(0)).intValue(), ((Long) range.get(1)).intValue(),
                    ((Long) primary.get(1)).intValue()));
        }
        ranges.sort(null);
        return ranges;
    }

    private static Object configGet(RespProbe probe, String name) throws IOException {
        List<?> reply = (List<?>) probe.call("CONFIG", "GET", name);
        if (reply.size() < 2) {
            throw new IllegalStateException("CONFIG GET " + name + " returned nothing");
        }
        return reply.get(1);
    }

    private static String firstLine(String info) {
        int end = info.indexOf('\r');
        return end < 0 ? info : info.substring(0, end);
    }

    private static <T> T withProbe(RedisServer node, ProbeCall<T> call) {
        try (RespProbe probe = node.probe()) {
            return call.apply(probe);
        } catch (IOException e) {
            throw new IllegalStateException(node + ": " + e.getMessage(), e);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50); // poll interval while waiting for the cluster state; not a test condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the Redis Cluster", e);
        }
    }

    /** A command sequence over one probe connection. */
    @FunctionalInterface
    private interface ProbeCall<T> {
        T apply(RespProbe probe) throws IOException;
    }

    /** Slots {@code start..end} served by the primary on {@code port}. */
    private record SlotRange(int start, int end, int port) implements Comparable<SlotRange> {
        @Override
        public int compareTo(SlotRange o) {
            return Integer.compare(start, o.start);
        }

        @Override
        public String toString() {
            return start + "-" + end + "@" + port;
        }
    }
}
