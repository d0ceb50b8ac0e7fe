package io.shardline.runtime.worker;

import com.codahale.metrics.MetricRegistry;
import io.shardline.api.config.Placeholders;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.cluster.WorkerCluster;
import io.shardline.runtime.config.WorkerConfig;
import io.shardline.runtime.control.ListenerRunner;
import io.shardline.runtime.control.ListenerSupervisor;
import io.shardline.runtime.coordinator.CoordinatorHostSettings;
import io.shardline.runtime.coordinator.CoordinatorVerticle;
import io.shardline.runtime.coordinator.LeaderAssignors;
import io.shardline.runtime.listener.Listener;
import io.shardline.runtime.listener.ListenerDefinition;
import io.shardline.runtime.control.ListenerFileWatch;
import io.shardline.runtime.control.ListenerLoader;
import io.shardline.runtime.member.MemberVerticle;
import io.shardline.runtime.metrics.DropwizardCoordinatorMetrics;
import io.shardline.runtime.plugin.AssignorPlugins;
import io.shardline.runtime.plugin.PluginError;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.ShardZones;
import io.shardline.runtime.reshard.ReleaseHints;
import io.shardline.runtime.topology.TopologyCheck;
import io.shardline.runtime.topology.TopologyStore;
import io.shardline.runtime.control.ControlKeys;
import io.shardline.runtime.control.ListenerConfigStore;
import io.shardline.runtime.control.ListenerStateStore;
import io.shardline.runtime.control.RestConfigPolicy;
import io.shardline.runtime.rest.RestPortCheck;
import io.shardline.runtime.rest.RestSettings;
import io.shardline.runtime.control.WorkerClusterView;
import io.shardline.runtime.shard.BoundedShardRedis;
import io.shardline.runtime.shard.RuntimeShardRedis;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.store.MetadataKeys;
import io.shardline.runtime.store.RecordCodec;
import io.shardline.runtime.store.RedisGroupLog;
import io.vertx.core.Future;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running worker: plugins and listeners loaded and validated, cluster joined, Redis connected, the
 * coordinator host deployed (it serves when this worker leads), and one heartbeat loop per logical
 * member of every listener. {@link #start} blocks until all of that is up; {@link #stop} leaves every
 * group (revoking and draining shards), hands the coordinator over if this worker leads, then leaves the
 * cluster.
 *
 * <p>Thread-safe; start and stop from plain threads, never an event loop.
 */
public final class Worker {

    /** Member attribute carrying the REST address, shown by every worker. */
    public static final String REST_ATTRIBUTE = "shardline.rest";

    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    private static final long START_TIMEOUT_MS = 60_000;
    /** How long a REST request waits for another worker's (or the leader's) answer over the event bus. */
    private static final long PEER_TIMEOUT_MS = 2_000;

    private final WorkerConfig config;
    private final WorkerCluster cluster;
    private final RedisClient redis;
    private final Plugins plugins;
    private final ListenerSupervisor supervisor;
    private final ControlPlaneHost controlPlane;
    private final CoordinatorVerticle coordinator;
    private final LeaderAssignors assignors;

    private Worker(WorkerConfig config, WorkerCluster cluster, RedisClient redis, Plugins plugins,
                   ListenerSupervisor supervisor, ControlPlaneHost controlPlane, CoordinatorVerticle coordinator,
                   LeaderAssignors assignors) {
        this.config = config;
        this.cluster = cluster;
        this.redis = redis;
        this.plugins = plugins;
        this.supervisor = supervisor;
        this.controlPlane = controlPlane;
        this.coordinator = coordinator;
        this.assignors = assignors;
    }

    /**
     * Starts a worker.
     *
     * @param home directory relative {@code plugin.path} and {@code listeners.dir} are resolved against
     * @throws io.shardline.api.config.ConfigException when a listener file is invalid (before joining anything)
     * @throws io.shardline.runtime.cluster.ClusterStartException when the cluster cannot be joined
     * @throws IllegalStateException when Redis or Vert.x cannot start
     */
    public static Worker start(WorkerConfig config, Path home, Placeholders placeholders) {
        LongSupplier clockMs = () -> System.nanoTime() / 1_000_000;
        RestSettings.of(config); // the REST token file is in place (or the start fails) before anything is joined
        RestPortCheck.ensureFree(config.restBind(), config.restPort());
        StartPhases phases = new StartPhases(clockMs);
        List<Path> pluginPath = config.pluginPath().stream().map(home::resolve).toList();
        Plugins plugins = Plugins.load(pluginPath, Worker.class.getClassLoader());
        for (PluginError error : plugins.errors()) {
            LOG.warn("Plugin not loaded: {}", error);
        }
        List<ListenerDefinition> definitions = ListenerLoader.loadAll(home.resolve(config.listenersDir()), plugins,
                placeholders).throwIfInvalid().listeners();
        phases.done("plugins and listener files");

        LeaderAssignors assignors = new LeaderAssignors(new AssignorPlugins(plugins), config.workerId(),
                config.assignorTimeoutMs(), clockMs);
        String rest = config.restBind() + ":" + config.restPort();
        WorkerCluster cluster = WorkerCluster.start(config.clusterSettings(Map.of(REST_ATTRIBUTE, rest)),
                START_TIMEOUT_MS);
        phases.done(cluster.startPhases());
        // What started so far, stopped in reverse order when a later step fails: users of Redis before Redis, so
        // nothing writes to a closed connection (and logs its stack trace) while the start is unwound.
        java.util.Deque<java.util.function.Supplier<Future<?>>> started = new java.util.ArrayDeque<>();
        try {
            long seed = System.nanoTime();
            LOG.info("Reconnect jitter seed {}", seed);
            RedisClient redis = await(RedisClient.connect(cluster.vertx(), config.redis(), new SplittableRandom(seed)));
            started.push(redis::close);
            await(WorkerRedisAcl.check(redis, config, definitions));
            phases.done("redis");
            RuntimeShardRedis shardRedis = new RuntimeShardRedis(redis);
            TopologyCheck topologies = new TopologyCheck(new TopologyStore(redis, config.clusterName()));
            MetricRegistry registry = new MetricRegistry();
            CoordinatorVerticle coordinator = new CoordinatorVerticle(new CoordinatorHostSettings(config.clusterName(),
                    config.workerId(), redis, new RedisGroupLog(redis, new MetadataKeys(config.clusterName())),
                    new RecordCodec(), new ShardCommands(shardRedis), assignors,
                    new DropwizardCoordinatorMetrics(registry),
                    clockMs, Math.max(50, config.heartbeatIntervalMs() / 2), config.heartbeatIntervalMs(),
                    config.sessionTimeoutMs()));
            String coordinatorDeployment = await(cluster.vertx().deployVerticle(coordinator));
            started.push(() -> cluster.vertx().undeploy(coordinatorDeployment));
            cluster.onViewChange(coordinator::onViewChange);
            phases.done("coordinator");

            // Listeners from files and from the Redis store, in their stored target states (a paused listener
            // starts paused, a stopped one does not start), kept in step every heartbeat interval.
            ControlKeys keys = new ControlKeys(config.clusterName());
            ListenerConfigStore configs = new ListenerConfigStore(redis, keys);
            ListenerStateStore states = new ListenerStateStore(redis, keys);
            ListenerSupervisor supervisor = new ListenerSupervisor(cluster.vertx(), config.workerId(),
                    new ListenerRunner(cluster.vertx(), new BoundedShardRedis(cluster.vertx(), shardRedis,
                            memberCommandLimit(config)),
                            config, registry, cluster::view, clockMs,
                            new ShardZones(redis, config.redisZones()), d -> WorkerRedisAcl.check(redis, config, List.of(d))
                            .compose(v -> topologies.ensure(d.name(), d.config().streams()))),
                    plugins, placeholders, RestConfigPolicy.of(config), definitions, configs, states);
            started.push(() -> supervisor.close().transform(v -> Future.join(supervisor.listeners().stream()
                    .map(Listener::close).toList())));
            await(supervisor.start(config.heartbeatIntervalMs()));
            // A listener file changed after the start is not applied until a restart: say so (nothing silently ignored).
            long fileWatch = new ListenerFileWatch(home.resolve(config.listenersDir()), definitions.stream()
                    .collect(java.util.stream.Collectors.toMap(ListenerDefinition::name, ListenerDefinition::rawConfig)))
                    .start(cluster.vertx(), ListenerFileWatch.INTERVAL_MS);
            started.push(() -> {
                cluster.vertx().cancelTimer(fileWatch);
                return Future.succeededFuture();
            });
            // The leader's resharding hints to this worker's members (docs/protocol.md section 8b, "The barrier").
            MessageConsumer<JsonObject> releases = new ReleaseHints(cluster.vertx(), config.clusterName())
                    .listen(new ReshardHintRelay(supervisor::listeners));
            started.push(releases::unregister);
            phases.done("listeners");
            ControlPlaneHost controlPlane = await(ControlPlaneHost.start(cluster.vertx(), config, redis, plugins,
                    registry, supervisor, new WorkerClusterView(cluster.vertx(), config.clusterName(), config.workerId(),
                            cluster::view, definitions, PEER_TIMEOUT_MS), () -> cluster.view().isLeader(),
                    configs, states));
            phases.done("rest");
            LOG.info("Start phases (ms): {}", phases);
            return new Worker(config, cluster, redis, plugins, supervisor, controlPlane, coordinator, assignors);
        } catch (RuntimeException e) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!started.isEmpty()) {
                awaitQuietly(started.pop().get(), deadline, "unwinding the start");
            }
            cluster.stop(Math.max(1_000, remainingMs(deadline)));
            assignors.close();
            throw e;
        }
    }

    /**
     * The most pooled commands a worker's members have in flight at once: half of {@code redis.pool.waiting} beyond
     * the pool's connections, so the coordinator and the control plane always find room in the wait queue.
     */
    static int memberCommandLimit(WorkerConfig config) {
        return Math.max(1, config.redis().poolSize() + config.redis().poolWaiting() / 2);
    }

    /** The one line printed when the worker has joined. */
    public String joinedLine(long startedMsAgo) {
        LeaderView view = cluster.view();
        return "Shardline worker " + config.workerId() + " joined cluster '" + config.clusterName() + "': "
                + view.size() + " worker(s), leader " + view.leader().workerId() + ", REST "
                + (config.restTlsKey().isPresent() ? "https" : "http") + "://" + config.restBind() + ":" + config.restPort() + ", " + supervisor.members().size() + " member(s) ("
                + startedMsAgo + " ms after JVM start)";
    }

    /** The cluster view. */
    public LeaderView view() {
        return cluster.view();
    }

    /**
     * Graceful stop within {@code timeoutMs}: every member leaves its group (shards revoked, in-flight
     * batches drained, revocations reported); a leading worker then hands the coordinator over to the next
     * oldest worker and points the other members there (so their leases never run out during the move);
     * listeners close, then the worker leaves the cluster.
     *
     * @return true when everything finished in time
     */
    public boolean stop(long timeoutMs) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        controlPlane.close();
        awaitQuietly(supervisor.close(), deadline, "listener changes in progress");
        List<MemberVerticle> members = supervisor.members();
        List<Listener> listeners = supervisor.listeners();
        LOG.info("Stopping worker {}: {} member(s) leave their groups", config.workerId(), members.size());
        boolean clean = awaitQuietly(Future.join(members.stream().map(MemberVerticle::leave).toList()), deadline,
                "members leaving their groups");
        clean &= awaitQuietly(coordinator.handOver(remainingMs(deadline)), deadline, "handing the coordinator over");
        clean &= awaitQuietly(Future.join(listeners.stream().map(Listener::close).toList()), deadline,
                "listeners closing");
        awaitQuietly(redis.close(), deadline, "closing Redis");
        cluster.stop(Math.max(1_000, remainingMs(deadline)));
        assignors.close();
        plugins.close();
        LOG.info("Worker {} stopped{}", config.workerId(), clean ? "" : " (not everything finished in time)");
        return clean;
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(START_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IllegalStateException("worker start did not finish within " + START_TIMEOUT_MS + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting", e);
        }
    }

    private static boolean awaitQuietly(Future<?> future, long deadlineNanos, String what) {
        try {
            future.toCompletionStage().toCompletableFuture().get(remainingMs(deadlineNanos), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            LOG.warn("Gave up waiting for {}: stop timeout reached", what);
        } catch (ExecutionException e) {
            LOG.warn("{} failed: {}", what, e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private static long remainingMs(long deadlineNanos) {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
    }
}
