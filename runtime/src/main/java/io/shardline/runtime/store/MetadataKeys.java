package io.shardline.runtime.store;

import java.util.List;
import java.util.Objects;

/**
 * The Redis keys of one cluster's group metadata. All share the hash tag {@code {shardline:<cluster>}}
 * so that one Lua script can check and write them together, also on a Redis Cluster.
 *
 * <p>Immutable.
 *
 * @param clusterName the cluster name
 */
public record MetadataKeys(String clusterName) {

    /** Validates the name. */
    public MetadataKeys {
        Objects.requireNonNull(clusterName, "clusterName");
        if (clusterName.contains("{") || clusterName.contains("}")) {
            throw new IllegalArgumentException("cluster name must not contain braces: " + clusterName);
        }
    }

    /** The common prefix, e.g. {@code {shardline:prod}}. */
    public String prefix() {
        return "{shardline:" + clusterName + "}";
    }

    /** Integer: the leader epoch; only grows. */
    public String leaderEpoch() {
        return prefix() + ":leader-epoch";
    }

    /** String: the worker id that took the current leader epoch (informational). */
    public String leaderHolder() {
        return prefix() + ":leader-holder";
    }

    /**
     * Integer: how many workers the holder of the leader epoch saw when it last recorded its cluster view (at its
     * claim and on every change of its view); a claimant that sees more may depose a holder that still writes.
     */
    public String leaderView() {
        return prefix() + ":leader-view";
    }

    /** Integer: the store revision; every successful write increments it. */
    public String revision() {
        return prefix() + ":revision";
    }

    /** List: the coordinator records (JSON), a snapshot followed by the records appended since. */
    public String log() {
        return prefix() + ":log";
    }

    /**
     * String: {@code <run_id> <seconds> <microseconds>}, the Redis server's run id as the writer knew it and the
     * server's {@code TIME} at the last accepted guarded write. A new leader reads how long ago that was.
     */
    public String lastWrite() {
        return prefix() + ":last-write";
    }

    /**
     * Stream: the audit trail of consumer group {@code groupId}, the audit events of the coordinator's committed
     * decisions (written by the guarded append that commits them, capped; {@link RedisAuditLog}). It carries the
     * cluster's hash tag, so on a Redis Cluster it lives in the group log's slot and the append can write both.
     */
    public String audit(String groupId) {
        Objects.requireNonNull(groupId, "groupId");
        return prefix() + ":audit:" + groupId;
    }

    /** The keys the scripts take, in script order: epoch, holder, revision, log, last write. */
    public List<String> scriptKeys() {
        return List.of(leaderEpoch(), leaderHolder(), revision(), log(), lastWrite());
    }
}
