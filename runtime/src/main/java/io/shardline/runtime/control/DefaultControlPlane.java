package io.shardline.runtime.control;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.handler.ShardId;
import io.shardline.runtime.config.Version;
import io.shardline.runtime.plugin.AssignorPlugins;
import io.shardline.runtime.metrics.ListenerHistory;
import io.shardline.runtime.plugin.PluginDesc;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.listener.ListenerConfig;
import io.shardline.runtime.topology.StreamSpec;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisErrors;
import io.shardline.runtime.reshard.ReshardStore;
import io.shardline.runtime.retention.SharedStreams;
import io.shardline.runtime.rest.entity.AuditEntry;
import io.shardline.runtime.rest.entity.ConfigErrorInfo;
import io.shardline.runtime.rest.entity.ConfigKeyInfo;
import io.shardline.runtime.rest.entity.GroupSummary;
import io.shardline.runtime.rest.entity.GroupView;
import io.shardline.runtime.rest.entity.HealthStatus;
import io.shardline.runtime.rest.entity.ListenerHistoryView;
import io.shardline.runtime.rest.entity.ListenerInfo;
import io.shardline.runtime.rest.entity.DeadLetter;
import io.shardline.runtime.rest.entity.DeadLetterPage;
import io.shardline.runtime.rest.entity.ListenerOffsets;
import io.shardline.runtime.rest.entity.Redriven;
import io.shardline.runtime.rest.entity.OffsetsAltered;
import io.shardline.runtime.rest.entity.ListenerStatus;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.PluginInfo;
import io.shardline.runtime.rest.entity.ServerInfo;
import io.shardline.runtime.rest.entity.StreamView;
import io.shardline.runtime.rest.entity.TargetState;
import io.shardline.runtime.rest.entity.ValidationResult;
import io.shardline.runtime.rest.entity.WorkerInfo;
import io.shardline.runtime.rest.entity.WorkersInfo;
import io.shardline.runtime.store.MetadataKeys;
import io.shardline.runtime.store.RedisAuditLog;
import io.shardline.runtime.topology.TopologyCheck;
import io.shardline.runtime.topology.TopologyMismatchException;
import io.shardline.runtime.topology.TopologyStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The control plane of one worker. What lives in Redis it does itself: REST listener configurations
 * ({@link ListenerConfigStore}), target states and paused shards ({@link ListenerStateStore}; any worker
 * may write them, as Connect's target-state records, and every worker applies them within a heartbeat
 * interval), shard owners and lag ({@link ShardStatusReader}, through a {@link ShardStatusCache}), the groups'
 * audit trails ({@link RedisAuditLog},
 * written by the leader with each commit, so any worker reads them, also during and after a leader change).
 * Plugins and validation come from the worker's {@link Plugins}; what only the running worker knows (cluster,
 * members, coordinator read model, restarts) it asks of the {@link ClusterView}.
 *
 * <p>Thread-safe; never blocks the event loop (plugin instantiation runs on a worker thread).
 */
public final class DefaultControlPlane implements ControlPlane {

    private static final String FILE = "file";
    private static final String REST = "rest";

    private final Vertx vertx;
    private final ClusterView cluster;
    private final RedisClient redis;
    /** Refuses a listener whose shard count of a stream differs from the stream's topology (409). */
    private final TopologyCheck topologies;
    private final StreamAdmin streamAdmin;
    private final ListenerConfigValidator validator;
    private final ListenerConfigStore configs;
    private final ListenerStateStore states;
    private final ShardStatusCache cache;
    private final RedisAuditLog audit;
    private final Plugins plugins;
    private final GroupAdmin groups;
    private final OffsetAdmin offsets;
    private final DeadLetterAdmin deadLetters;
    private final MemberAdmin members;
    private final ListenerShapes shapes;

    /**
     * A control plane over the worker's one pair of stores (its listener supervisor reads the same ones).
     *
     * @param vertx for running plugin code off the event loop
     * @param cluster the worker's view of the cluster
     * @param redis the worker's Redis client
     * @param plugins the discovered plugins
     * @param listenerDefinition the definition of listener keys (with the {@code handler.config.} prefix)
     * @param policy the placeholders accepted in configurations it stores
     * @param configs the stored listener configurations
     * @param states the stored target states
     */
    public DefaultControlPlane(Vertx vertx, ClusterView cluster, RedisClient redis, Plugins plugins,
                               ConfigDef listenerDefinition, RestConfigPolicy policy, ListenerConfigStore configs,
                               ListenerStateStore states) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.redis = Objects.requireNonNull(redis, "redis");
        this.validator = new ListenerConfigValidator(plugins, listenerDefinition, policy);
        this.configs = Objects.requireNonNull(configs, "configs");
        this.states = Objects.requireNonNull(states, "states");
        this.cache = new ShardStatusCache(new ShardStatusReader(redis), () -> System.nanoTime() / 1_000_000);
        TopologyStore topologyStore = new TopologyStore(redis, cluster.clusterName());
        this.topologies = new TopologyCheck(topologyStore);
        this.shapes = new ListenerShapes(topologyStore);
        this.streamAdmin = new StreamAdmin(topologyStore, new ReshardStore(redis), this::groups);
        this.audit = new RedisAuditLog(redis, new MetadataKeys(cluster.clusterName()));
        this.plugins = plugins;
        this.groups = new GroupAdmin(cluster, redis, this::listenerStatuses);
        this.offsets = new OffsetAdmin(cluster, redis, states, name -> located(name).map(Located::config), shapes);
        this.deadLetters = new DeadLetterAdmin(cluster, redis, name -> located(name).map(Located::config));
        this.members = new MemberAdmin(cluster, states, cache, this::listenerNames,
                name -> located(name).map(Located::config), shapes);
    }

    /** The target-state store (the worker polls its snapshots). */
    public ListenerStateStore states() {
        return states;
    }

    /** The store of REST listener configurations (the worker runs what it holds). */
    public ListenerConfigStore configs() {
        return configs;
    }

    @Override
    public Future<ServerInfo> serverInfo() {
        return Future.succeededFuture(new ServerInfo(Version.current(), cluster.clusterName(), cluster.workerId(),
                cluster.leaderId().orElse(null)));
    }

    @Override
    public Future<WorkersInfo> workers() {
        return cluster.workers().map(list -> new WorkersInfo(cluster.leaderId().orElse(null),
                list.stream().sorted(Comparator.comparing(WorkerInfo::id)).toList()));
    }

    @Override
    public Future<List<PluginInfo>> plugins() {
        return vertx.executeBlocking(() -> {
            List<PluginInfo> out = new ArrayList<>();
            for (PluginDesc desc : plugins.handlers()) {
                List<ConfigKeyInfo> keys = validator.handlerDefinition(desc).keys().stream()
                        .map(ConfigKeyInfo::of).toList();
                out.add(new PluginInfo(desc.className(), desc.alias(), PluginInfo.HANDLER, desc.version(), desc.location(),
                        keys));
            }
            for (PluginDesc desc : new AssignorPlugins(plugins).plugins()) {
                out.add(new PluginInfo(desc.className(), desc.alias(), PluginInfo.ASSIGNOR, desc.version(),
                        desc.location(), List.of()));
            }
            out.sort(Comparator.comparing(PluginInfo::className));
            return out;
        }, false);
    }

    @Override
    public Future<ValidationResult> validate(String pluginClass, Map<String, String> config) {
        return vertx.executeBlocking(() -> validator.validate(pluginClass, config), false);
    }

    @Override
    public Future<List<String>> listenerNames() {
        return allConfigs().map(all -> List.copyOf(all.keySet()));
    }

    @Override
    public Future<Map<String, ListenerStatus>> listenerStatuses() {
        return members.listenerStatuses();
    }

    @Override
    public Future<ListenerInfo> listener(String name) {
        return located(name).compose(found -> states.targetState(name).compose(target ->
                vertx.executeBlocking(() -> new ListenerInfo(name, found.source(), target,
                        validator.hideSecrets(found.config())), false)));
    }

    @Override
    public Future<ListenerInfo> createListener(String name, Map<String, String> config, TargetState initialState) {
        return checkWritable(name)
                .compose(v -> checkValid(name, config))
                .compose(v -> configs.create(name, config))
                .compose(created -> created ? Future.<Void>succeededFuture()
                        : Future.failedFuture(ControlPlaneException.conflict("listener '" + name + "' already exists")))
                .compose(v -> initialState == TargetState.STARTED ? Future.<Void>succeededFuture()
                        : states.setTargetState(name, initialState))
                .onSuccess(v -> cluster.refresh())
                .compose(v -> listener(name));
    }

    @Override
    public Future<Upserted<ListenerInfo>> putListenerConfig(String name, Map<String, String> config) {
        return checkWritable(name)
                .compose(v -> checkValid(name, config))
                .compose(v -> configs.put(name, config))
                .onSuccess(v -> cluster.refresh())
                .compose(created -> listener(name).map(info -> new Upserted<>(info, created)));
    }

    @Override
    public Future<Void> deleteListener(String name) {
        return checkWritable(name)
                .compose(v -> configs.delete(name))
                .compose(existed -> existed ? states.forget(name)
                        : Future.failedFuture(notFound(name)))
                .onSuccess(v -> cluster.refresh());
    }

    @Override
    public Future<ListenerStatus> listenerStatus(String name) {
        return members.listenerStatus(name);
    }

    @Override
    public Future<ListenerStatus> listenerStatus(String name, ShardPage page) {
        return members.listenerStatus(name, page);
    }

    @Override
    public Future<Map<String, ListenerStatus>> sampledStatuses(String workerId, boolean unowned) {
        return members.sampledStatuses(workerId, unowned);
    }

    @Override
    public Future<ListenerHistoryView> listenerHistory(String name) {
        return located(name).compose(found -> cluster.history(name)).map(report -> new ListenerHistoryView(name,
                ListenerHistory.INTERVAL_MS, report.points(), report.unanswered()));
    }

    @Override
    public Future<Void> setTargetState(String name, TargetState state) {
        return located(name).compose(found -> states.setTargetState(name, state)).onSuccess(v -> cluster.refresh())
                .onComplete(ar -> cache.clear());
    }

    @Override
    public Future<ListenerStatus> restart(String name, boolean includeMembers, boolean onlyFailed) {
        return members.restart(name, includeMembers, onlyFailed);
    }

    @Override
    public Future<MemberStatus> member(String name, String memberId) {
        return members.member(name, memberId);
    }

    @Override
    public Future<MemberStatus> restartMember(String name, String memberId) {
        return members.restartMember(name, memberId);
    }

    @Override
    public Future<Void> setShardPaused(String name, ShardId shard, boolean paused) {
        return located(name).compose(found -> shapes.of(name, found.config())).compose(shape -> {
            if (!shape.has(shard)) {
                long count = shape.shardCount(shard.stream());
                return Future.failedFuture(ControlPlaneException.notFound("listener '" + name + "' has no shard "
                        + shard.stream() + ":" + shard.index() + (count == 0 ? " (it does not consume stream '"
                        + shard.stream() + "')" : " (stream '" + shard.stream() + "' has " + count + " shards)")));
            }
            return states.setShardPaused(name, shard, paused);
        }).onSuccess(v -> cluster.refresh());
    }

    @Override
    public Future<GroupView> group(String group) {
        return cluster.group(group).compose(view -> view.map(Future::succeededFuture)
                .orElseGet(() -> Future.failedFuture(ControlPlaneException.notFound("unknown group '" + group + "'"))));
    }

    /**
     * Read from the group's audit stream in Redis, not asked of the leader. Only an empty trail asks the leader
     * whether the group exists (404 if not; 409 while no leader answers): a group whose trail holds events exists.
     */
    @Override
    public Future<List<AuditEntry>> audit(String group, int limit) {
        return audit.recent(group, limit, o -> o.mapTo(AuditEntry.class)).compose(entries -> entries.isEmpty()
                ? group(group).map(known -> entries)
                : Future.succeededFuture(entries));
    }

    @Override
    public Future<HealthStatus> health() {
        // A PING the ACL denies still proves Redis answers (the worker itself does not need PING to run).
        return redis.send(Request.cmd(Command.PING))
                .map(pong -> true)
                .otherwise(RedisErrors::isNoPerm)
                .map(redisUp -> HealthStatus.of(cluster.joined(), cluster.leaderId().isPresent(), redisUp));
    }

    @Override
    public Future<List<GroupSummary>> groups() {
        return groups.groups();
    }

    @Override
    public Future<List<StreamView>> streams() {
        return streamAdmin.streams();
    }

    @Override
    public Future<StreamView> stream(String stream) {
        return streamAdmin.stream(stream);
    }

    @Override
    public Future<StreamView> createStream(String stream, int shards) {
        return streamAdmin.create(stream, shards);
    }

    @Override
    public Future<StreamView> reshardStream(String stream, int shards) {
        return streamAdmin.reshard(stream, shards);
    }

    @Override
    public Future<StreamView> rollbackStream(String stream) {
        return streamAdmin.rollback(stream);
    }

    @Override
    public Future<Void> deleteGroup(String group) {
        return groups.delete(group).onComplete(ar -> cache.clear());
    }

    @Override
    public Future<ListenerOffsets> offsets(String listener) {
        return offsets.offsets(listener);
    }

    @Override
    public Future<OffsetsAltered> alterOffsets(String listener, List<ShardMove> moves, boolean dryRun) {
        return offsets.alter(listener, moves, dryRun, "moved over REST").onComplete(ar -> cache.clear());
    }

    @Override
    public Future<OffsetsAltered> resetOffsets(String listener, boolean dryRun) {
        return offsets.reset(listener, dryRun).onComplete(ar -> cache.clear());
    }

    @Override
    public Future<DeadLetterPage> deadLetters(String listener, int limit, String before) {
        return deadLetters.list(listener, limit, before);
    }

    @Override
    public Future<DeadLetter> deadLetter(String listener, String id) {
        return deadLetters.show(listener, id);
    }

    @Override
    public Future<Redriven> redriveDeadLetters(String listener, RedriveRequest request, boolean dryRun) {
        return deadLetters.redrive(listener, request, dryRun);
    }

    @Override
    public Future<Map<String, String>> listenerConfig(String name) {
        return listener(name).map(ListenerInfo::config);
    }

    @Override
    public Future<ListenerInfo> patchListenerConfig(String name, Map<String, String> changes) {
        return checkWritable(name)
                .compose(v -> configs.get(name))
                .compose(stored -> stored.map(Future::succeededFuture).orElseGet(() -> Future.failedFuture(notFound(name))))
                .compose(stored -> {
                    Map<String, String> merged = new TreeMap<>(stored);
                    changes.forEach((key, value) -> {
                        if (value == null) {
                            merged.remove(key);
                        } else {
                            merged.put(key, value);
                        }
                    });
                    return checkValid(name, merged).compose(v -> configs.put(name, merged));
                })
                .onSuccess(v -> cluster.refresh())
                .compose(v -> listener(name));
    }

    @Override
    public Future<Map<String, String>> loggers() {
        return Future.succeededFuture(LoggerLevels.levels());
    }

    @Override
    public Future<List<String>> setLoggerLevel(String logger, String level, boolean clusterScope) {
        String checked = LoggerLevels.checkLevel(level);
        if (logger == null || logger.isBlank()) {
            return Future.failedFuture(ControlPlaneException.badRequest("logger: a logger name is required"));
        }
        if (clusterScope) {
            return cluster.setLogLevelEverywhere(logger, checked);
        }
        LoggerLevels.set(logger, checked);
        return Future.succeededFuture(List.of(cluster.workerId()));
    }

    private record Located(String source, Map<String, String> config) {
    }

    private Future<Map<String, Located>> allConfigs() {
        return configs.all().map(stored -> {
            Map<String, Located> out = new TreeMap<>();
            stored.forEach((name, config) -> out.put(name, new Located(REST, config)));
            cluster.fileListeners().forEach((name, config) -> out.put(name, new Located(FILE, config)));
            return out;
        });
    }

    private Future<Located> located(String name) {
        Map<String, String> file = cluster.fileListeners().get(name);
        if (file != null) {
            return Future.succeededFuture(new Located(FILE, file));
        }
        return configs.get(name).compose(stored -> stored
                .map(config -> Future.succeededFuture(new Located(REST, config)))
                .orElseGet(() -> Future.failedFuture(notFound(name))));
    }

    private Future<Void> checkWritable(String name) {
        if (!ListenerConfigValidator.validName(name)) {
            return Future.failedFuture(ControlPlaneException.badRequest("name: '" + name
                    + "' is not a listener name (1-128 letters, digits, '.', '_' or '-', starting with a letter or digit)"));
        }
        if (cluster.fileListeners().containsKey(name)) {
            return Future.failedFuture(ControlPlaneException.conflict("listener '" + name + "' is defined in a file "
                    + "in listeners.dir; change or remove the file instead"));
        }
        return Future.succeededFuture();
    }

    private Future<Void> checkValid(String name, Map<String, String> config) {
        String handler = config.get(ListenerConfigValidator.HANDLER_KEY);
        if (handler == null || handler.isBlank()) {
            return Future.failedFuture(ControlPlaneException.badRequest(
                    "config.handler: required (the handler plugin's alias or class name)"));
        }
        return validate(handler.trim(), config).compose(result -> {
            if (result.errorCount() == 0) {
                ListenerShape.of(name, config);
                List<StreamSpec> streams = java.util.Arrays.stream(config.get(ListenerConfig.STREAMS_CONFIG).split(","))
                        .map(String::trim).filter(t -> !t.isEmpty()).map(StreamSpec::parse).toList();
                // A topology this worker cannot read (e.g. a stream its Redis ACL does not cover) is not a reason
                // to refuse: every worker checks the count again when it starts the listener, and fails it with the
                // reason (the ACL check names the missing permission).
                return topologies.check(name, streams).recover(e -> e instanceof TopologyMismatchException
                        ? Future.failedFuture(ControlPlaneException.conflict(e.getMessage()))
                        : Future.succeededFuture()).compose(v -> checkSharedStreams(name, config));
            }
            String errors = result.errors().stream().map(DefaultControlPlane::describe).collect(Collectors.joining("; "));
            return Future.failedFuture(ControlPlaneException.badRequest("listener '" + name + "' has "
                    + result.errorCount() + " configuration error(s): " + errors));
        });
    }

    /** 409 when {@code config} breaks a rule of listeners sharing a stream (docs/operations.md, "Retention"). */
    private Future<Void> checkSharedStreams(String name, Map<String, String> config) {
        return allConfigs().compose(all -> {
            Map<String, Map<String, String>> others = new TreeMap<>();
            all.forEach((other, located) -> others.put(other, located.config()));
            List<SharedStreams.Problem> problems = SharedStreams.problems(name, config, others);
            if (problems.isEmpty()) {
                return Future.succeededFuture();
            }
            return Future.failedFuture(ControlPlaneException.conflict("listener '" + name + "': " + problems.stream()
                    .map(p -> "config." + p.key() + (p.value() == null ? "" : " = '" + p.value() + "'") + ": "
                            + p.message()).collect(Collectors.joining("; "))));
        });
    }

    private static String describe(ConfigErrorInfo e) {
        return "config." + e.key() + (e.value() == null ? "" : " = '" + e.value() + "'") + ": " + e.reason();
    }

    private static ControlPlaneException notFound(String name) {
        return ControlPlaneException.notFound("unknown listener '" + name + "'");
    }
}
