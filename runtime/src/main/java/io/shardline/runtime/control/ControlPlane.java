package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.rest.entity.AuditEntry;
import io.shardline.runtime.rest.entity.DeadLetter;
import io.shardline.runtime.rest.entity.DeadLetterPage;
import io.shardline.runtime.rest.entity.Redriven;
import io.shardline.runtime.rest.entity.GroupSummary;
import io.shardline.runtime.rest.entity.GroupView;
import io.shardline.runtime.rest.entity.HealthStatus;
import io.shardline.runtime.rest.entity.ListenerHistoryView;
import io.shardline.runtime.rest.entity.ListenerInfo;
import io.shardline.runtime.rest.entity.ListenerOffsets;
import io.shardline.runtime.rest.entity.OffsetsAltered;
import io.shardline.runtime.rest.entity.ListenerStatus;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.PluginInfo;
import io.shardline.runtime.rest.entity.ServerInfo;
import io.shardline.runtime.rest.entity.TargetState;
import io.shardline.runtime.rest.entity.ValidationResult;
import io.shardline.runtime.rest.entity.WorkersInfo;
import io.shardline.runtime.rest.entity.StreamView;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;

/**
 * The control plane's operations, one per REST route: the routes only parse the request and call one
 * method. Failures are {@link ControlPlaneException}s carrying the HTTP status (400 naming the field, 404
 * for unknown names, 409 for conflicts); anything else is an internal error.
 *
 * <p>Every method is non-blocking (returns at once; the work runs on the event loop or a worker thread).
 */
public interface ControlPlane {

    /** Version, cluster, worker and leader ids of this worker. */
    Future<ServerInfo> serverInfo();

    /** The live workers, their listeners and members, and the leader. */
    Future<WorkersInfo> workers();

    /** The installed handler plugins with their configuration definitions. */
    Future<List<PluginInfo>> plugins();

    /** Every error of {@code config} as a listener configuration using handler {@code pluginClass}. */
    Future<ValidationResult> validate(String pluginClass, Map<String, String> config);

    /** The names of every listener (from files and from REST), sorted. */
    Future<List<String>> listenerNames();

    /** The status of every listener, by name. */
    Future<Map<String, ListenerStatus>> listenerStatuses();

    /** One listener's configuration (secrets hidden) and target state. */
    Future<ListenerInfo> listener(String name);

    /** Creates a listener (stored in Redis, run by every worker) in {@code initialState}. */
    Future<ListenerInfo> createListener(String name, Map<String, String> config, TargetState initialState);

    /** Creates or replaces the configuration of a REST listener. */
    Future<Upserted<ListenerInfo>> putListenerConfig(String name, Map<String, String> config);

    /** Deletes a REST listener and its stored target states. */
    Future<Void> deleteListener(String name);

    /** One listener's state, members and all its shards (read at the pace of {@code redis.monitoring.in.flight}). */
    Future<ListenerStatus> listenerStatus(String name);

    /** One listener's state, members and the shards of {@code page}, with the listener's shard count. */
    Future<ListenerStatus> listenerStatus(String name, ShardPage page);

    /**
     * Every listener's state and members, with only the shards the members of worker {@code workerId} own (by the
     * members' reports) and, when {@code unowned}, the shards no member owns: what that worker's metrics sampler
     * exports, read without the shards other workers export.
     */
    Future<Map<String, ListenerStatus>> sampledStatuses(String workerId, boolean unowned);

    /** One listener's records handled and dead-lettered per second and lag over the last 15 minutes. */
    Future<ListenerHistoryView> listenerHistory(String name);

    /** Stores the target state of a listener (pause, resume, stop). */
    Future<Void> setTargetState(String name, TargetState state);

    /** Restarts a listener (KIP-745 flags) and answers its status with the restarting members. */
    Future<ListenerStatus> restart(String name, boolean includeMembers, boolean onlyFailed);

    /** One member of a listener (Connect's task status); 404 when the listener has no such member. */
    Future<MemberStatus> member(String name, String memberId);

    /**
     * Restarts one member of a listener on the worker hosting it (it leaves its group and rejoins: its member epoch
     * moves); answers its status as RESTARTING. 404 when the listener has no such member.
     */
    Future<MemberStatus> restartMember(String name, String memberId);

    /** Pauses or resumes one shard of a listener. */
    Future<Void> setShardPaused(String name, ShardId shard, boolean paused);

    /** The coordinator's read model of a group. */
    Future<GroupView> group(String group);

    /** The most recent audit events of a group, newest last. */
    Future<List<AuditEntry>> audit(String group, int limit);

    /** Liveness and readiness. */
    Future<HealthStatus> health();

    // Operating groups and positions (docs/operations.md, "Groups" and "Positions").

    /** Every group: its streams, listeners, state, members and total lag. */
    Future<List<GroupSummary>> groups();

    /** Deletes a group with no live member and no listener that is not STOPPED (409 otherwise). */
    Future<Void> deleteGroup(String group);

    /** The group's position on every shard of a listener (last delivered id, lag, pending, oldest pending). */
    Future<ListenerOffsets> offsets(String listener);

    /**
     * Moves a STOPPED listener's group on the shards named (a {@code null} shard: all) and drops their pending
     * entries; with {@code dryRun} only answers what would change (in any state).
     */
    Future<OffsetsAltered> alterOffsets(String listener, List<ShardMove> moves, boolean dryRun);

    /** Moves a STOPPED listener's group on every shard back to its {@code start.from}. */
    Future<OffsetsAltered> resetOffsets(String listener, boolean dryRun);

    /** A listener's configuration (secrets hidden), as {@code GET /listeners/{name}/config}. */
    Future<Map<String, String>> listenerConfig(String name);

    /**
     * Changes some keys of a REST listener's configuration: a {@code null} value removes the key; the result is
     * validated like a PUT (400 naming every bad key) and stored.
     */
    Future<ListenerInfo> patchListenerConfig(String name, Map<String, String> changes);

    // Dead letters (docs/operations.md, "Dead letters").

    /** Up to {@code limit} of a listener's dead letters older than {@code before} ({@code null}: the newest), newest first. */
    Future<DeadLetterPage> deadLetters(String listener, int limit, String before);

    /** One dead letter of a listener, with its record's fields. */
    Future<DeadLetter> deadLetter(String listener, String id);

    /**
     * Writes chosen dead letters (or all) back to their source shards or to another stream, removing each from the
     * dead-letter stream once written; audited. With {@code dryRun} only answers what would be done.
     */
    Future<Redriven> redriveDeadLetters(String listener, RedriveRequest request, boolean dryRun);

    /** This worker's loggers with a level set, by name ({@code ROOT} included). */
    Future<Map<String, String>> loggers();

    /** Sets a log level on this worker, or with {@code cluster} on every live worker; answers the workers. */
    Future<List<String>> setLoggerLevel(String logger, String level, boolean cluster);

    // Streams (docs/operations.md, "Changing the shard count").

    /** Every stream of the cluster with its topology and the groups on it. */
    Future<List<StreamView>> streams();

    /** One stream; 404 when it has no topology. */
    Future<StreamView> stream(String stream);

    /** Creates a stream's topology with {@code shards} shards; 409 when it exists, 400 for a bad name or count. */
    Future<StreamView> createStream(String stream, int shards);

    /** Starts changing a stream's shard count; 400 for a bad count, 404, 409 when a change runs or it is unchanged. */
    Future<StreamView> reshardStream(String stream, int shards);

    /** Rolls a stream's running change back; 404, 409 when no change runs. */
    Future<StreamView> rollbackStream(String stream);
}
