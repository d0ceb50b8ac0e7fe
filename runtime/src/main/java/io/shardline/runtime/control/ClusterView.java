package io.shardline.runtime.control;

import io.shardline.runtime.rest.entity.GroupView;
import io.shardline.runtime.rest.entity.WorkerInfo;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What only the running worker knows, as the REST layer needs it: cluster membership and leadership, the
 * listeners loaded from files, the members of each listener, and (on the leader, or asked of it) the
 * coordinator's read model. The worker implements it; the REST layer never reaches into
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

    /**
     * The members of {@code listener} on every live worker (empty when none runs), with the workers that did
     * not answer in time.
     */
    Future<MemberReport> members(String listener);

    /**
     * The recent history of {@code listener}: every live worker's share added up by interval
     * ({@link io.shardline.runtime.metrics.ListenerHistory#sum}), with the workers that did not answer in time.
     */
    Future<HistoryReport> history(String listener);

    /** The coordinator's read model of {@code group}; empty when the coordinator does not know it. */
    Future<Optional<GroupView>> group(String group);

    /**
     * Restarts {@code listener} on every live worker (KIP-745, forwarded to each worker): its instance there
     * stops (members leave the group, handlers stop) and starts again from its stored definition; with
     * {@code onlyFailed} only on the workers where it FAILED. {@code includeMembers} only widens what the
     * answer reports: a listener's members on a worker start and stop with its instance there.
     *
     * @return the ids of the members that are restarting
     */
    Future<List<String>> restart(String listener, boolean includeMembers, boolean onlyFailed);

    /**
     * Restarts member {@code memberId} of {@code listener} on {@code workerId}, the worker hosting it: it leaves
     * its group and joins again.
     *
     * @return the member id when it restarts, empty when that worker does not run it (any more)
     */
    default Future<List<String>> restartMember(String listener, String memberId, String workerId) {
        return Future.failedFuture(new UnsupportedOperationException("restartMember"));
    }

    /**
     * Tells every worker that the stored listener definitions or target states changed, so that they apply
     * them now instead of at their next poll (at most one heartbeat interval later). Best effort.
     */
    default void refresh() {
    }

    /**
     * Every group the leader's coordinator hosts, sorted by id. Fails with 409 while no leader answers.
     */
    default Future<List<HostedGroup>> hostedGroups() {
        return Future.failedFuture(new UnsupportedOperationException("hostedGroups"));
    }

    /**
     * Asks the leader's coordinator to forget {@code group} (its tombstone is committed before the answer), which
     * it refuses while the group has members. Fails with 409 while no leader answers.
     */
    default Future<HostedGroup.Deletion> deleteHostedGroup(String group) {
        return Future.failedFuture(new UnsupportedOperationException("deleteHostedGroup"));
    }

    /**
     * Asks the leader's coordinator to set {@code stream}'s shard count in {@code group}'s managed shard set (a
     * resharding's step, committed before the answer). Answers whether it changed.
     */
    default Future<Boolean> reshardHostedGroup(String group, String stream, int shards, boolean rollback) {
        return Future.failedFuture(new UnsupportedOperationException("reshardHostedGroup"));
    }

    /**
     * Sets {@code logger}'s level on every live worker (this one included) over the control wire; answers the ids
     * of the workers that applied it, sorted, and fails (500) naming the workers that did not.
     */
    default Future<List<String>> setLogLevelEverywhere(String logger, String level) {
        return Future.failedFuture(new UnsupportedOperationException("setLogLevelEverywhere"));
    }
}
