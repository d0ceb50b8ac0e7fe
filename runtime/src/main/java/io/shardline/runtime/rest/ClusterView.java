package io.shardline.runtime.rest;

import io.shardline.runtime.rest.entity.AuditEntry;
import io.shardline.runtime.rest.entity.GroupView;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.WorkerInfo;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What only the running worker knows, as the REST layer needs it: cluster membership and leadership, the
 * listeners loaded from files, the members of each listener, and (on the leader, or asked of it) the
 * coordinator's read model and audit log. The worker implements it; the REST layer never reaches into
 * the cluster, coordinator or member packages itself.
 *
 * <p>Implementations must be thread-safe and must not block: every method is called on an event loop.
 */
public interface ClusterView {

    /** The cluster's name ({@code cluster.name}). */
    String clusterName();

    /** This worker's id. */
    String workerId();

    /** The current leader's worker id, empty while none is known. */
    Optional<String> leaderId();

    /** Whether this worker has joined the cluster. */
    boolean joined();

    /** The live workers with their listeners and members. */
    Future<List<WorkerInfo>> workers();

    /**
     * The listeners this worker loaded from {@code listeners.dir}: name to raw configuration (placeholders
     * unresolved; the REST layer hides password values itself).
     */
    Map<String, Map<String, String>> fileListeners();

    /** The members of {@code listener} on every worker, sorted by id; empty when none runs. */
    Future<List<MemberStatus>> members(String listener);

    /** The coordinator's read model of {@code group}; empty when the coordinator does not know it. */
    Future<Optional<GroupView>> group(String group);

    /** The most recent audit events of {@code group}, newest last, at most {@code limit}. */
    Future<List<AuditEntry>> audit(String group, int limit);

    /**
     * Restarts members of {@code listener} (KIP-745): with {@code includeMembers} false only the listener
     * instance on each worker (its handler is stopped and started again, the members keep their shards),
     * else also its members ({@code onlyFailed}: only the FAILED ones).
     *
     * @return the ids of the members that are restarting
     */
    Future<List<String>> restart(String listener, boolean includeMembers, boolean onlyFailed);
}
