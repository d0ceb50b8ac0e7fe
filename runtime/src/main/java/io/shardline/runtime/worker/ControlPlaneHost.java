package io.shardline.runtime.worker;

import com.codahale.metrics.MetricRegistry;
import io.shardline.runtime.control.ClusterView;
import io.shardline.runtime.control.ControlEndpoint;
import io.shardline.runtime.control.DefaultControlPlane;
import io.shardline.runtime.control.HostedGroup;
import io.shardline.runtime.control.ListenerConfigStore;
import io.shardline.runtime.control.ListenerStateStore;
import io.shardline.runtime.control.ListenerStatusSampler;
import io.shardline.runtime.control.LocalListeners;
import io.shardline.runtime.control.PausedGroups;
import io.shardline.runtime.control.RestConfigPolicy;
import io.shardline.runtime.listener.ListenerConfig;
import io.shardline.runtime.metrics.JmxMetrics;
import io.shardline.runtime.metrics.ListenerHistory;
import io.shardline.runtime.metrics.RedisMetrics;
import io.shardline.runtime.metrics.ReshardMetrics;
import io.shardline.runtime.metrics.RetentionMetrics;
import io.shardline.runtime.metrics.ShardMetrics;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.reshard.GroupShardSets;
import io.shardline.runtime.reshard.ReshardTask;
import io.shardline.runtime.rest.RestServerVerticle;
import io.shardline.runtime.rest.RestSettings;
import io.shardline.runtime.retention.RetentionTask;
import io.shardline.runtime.retention.RetentionTrim;
import io.shardline.runtime.topology.TopologyStore;
import io.shardline.runtime.config.WorkerConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Everything of the control plane a worker runs besides its listeners: the REST server, this worker's
 * {@link ControlEndpoint} (other workers ask it for the members it hosts and to restart listeners), the JMX
 * reporter, the lag and history sampler (every {@link #SAMPLE_INTERVAL_MS} ms, each worker its own shards) and, on the
 * leader, the retention task ({@link RetentionTask}). Started once by the
 * worker; stopped with its Vert.x instance.
 */
public final class ControlPlaneHost {

    /** How often every worker samples the lag, pending counts and owners of its shards and the listeners' history. */
    public static final long SAMPLE_INTERVAL_MS = ListenerHistory.INTERVAL_MS;

    private final RestServerVerticle rest;
    private final ControlEndpoint endpoint;
    private final JmxMetrics jmx;
    private final ListenerStatusSampler sampler;
    private final RetentionTask retention;
    private final ReshardTask reshard;

    private ControlPlaneHost(RestServerVerticle rest, ControlEndpoint endpoint, JmxMetrics jmx,
                             ListenerStatusSampler sampler, RetentionTask retention, ReshardTask reshard) {
        this.reshard = reshard;
        this.rest = rest;
        this.endpoint = endpoint;
        this.jmx = jmx;
        this.sampler = sampler;
        this.retention = retention;
    }

    /**
     * Starts the control plane of a worker.
     *
     * @param local the listeners this worker runs (answered to other workers)
     * @param cluster the worker's view of the cluster
     * @param leader whether this worker leads now (it also exports the unowned shards)
     * @param configs the worker's store of listener configurations (its supervisor's)
     * @param states the worker's store of target states (its supervisor's)
     */
    public static Future<ControlPlaneHost> start(Vertx vertx, WorkerConfig config, RedisClient redis, Plugins plugins,
                                                 MetricRegistry registry, LocalListeners local,
                                                 ClusterView cluster, BooleanSupplier leader,
                                                 ListenerConfigStore configs, ListenerStateStore states) {
        RestSettings settings = RestSettings.of(config);
        DefaultControlPlane plane = new DefaultControlPlane(vertx, cluster, redis, plugins, ListenerConfig.DEFINITION,
                RestConfigPolicy.of(config), configs, states);
        RestServerVerticle rest = new RestServerVerticle(settings, plane, registry);
        ListenerHistory history = new ListenerHistory();
        return ControlEndpoint.start(vertx, cluster.clusterName(), cluster.workerId(), local, history)
                .compose(endpoint -> vertx.deployVerticle(rest).map(id -> {
                    ListenerStatusSampler sampler = new ListenerStatusSampler(vertx, plane, cluster.workerId(),
                            registry, new ShardMetrics(registry), history, leader, System::currentTimeMillis);
                    sampler.start(SAMPLE_INTERVAL_MS);
                    RedisMetrics.register(registry, redis);
                    // Every listener's declaration (files and REST).
                    Supplier<Future<Map<String, Map<String, String>>>> definitions = () -> plane.configs().all()
                            .map(stored -> {
                                Map<String, Map<String, String>> all = new TreeMap<>(stored);
                                all.putAll(cluster.fileListeners());
                                return all;
                            });
                    // Retention runs on the leader, over every listener's declaration and every shard its streams have now.
                    RetentionTask retention = new RetentionTask(vertx, new RetentionTrim(redis), definitions,
                            new TopologyStore(redis, config.clusterName())::readAll, leader,
                            new RetentionMetrics(registry), System::currentTimeMillis, config.retention());
                    retention.start();
                    // Resharding runs on the leader too (docs/operations.md, "Changing the shard count").
                    ReshardTask reshard = ReshardTask.of(vertx, redis, config.clusterName(),
                            groupShardSets(cluster, states, definitions), leader, new ReshardMetrics(registry),
                            config.heartbeatIntervalMs());
                    reshard.start();
                    return new ControlPlaneHost(rest, endpoint, JmxMetrics.start(registry), sampler, retention,
                            reshard);
                }));
    }

    /**
     * The groups on a stream and their shard-set changes, through the leader's coordinator, with what is paused of
     * them ({@link PausedGroups}: the target states and the listeners' definitions).
     */
    private static GroupShardSets groupShardSets(ClusterView cluster, ListenerStateStore states,
                                                 Supplier<Future<Map<String, Map<String, String>>>> definitions) {
        return new GroupShardSets() {
            @Override
            public Future<List<OnStream>> on(String stream) {
                return Future.all(cluster.hostedGroups(), states.snapshot(), definitions.get()).map(all -> {
                    Map<String, List<Paused>> paused = PausedGroups.on(stream, all.resultAt(1), all.resultAt(2));
                    return all.<List<HostedGroup>>resultAt(0).stream().filter(g -> g.streams().containsKey(stream))
                            .map(g -> new OnStream(g.group(), g.streams().get(stream), g.members(),
                                    paused.getOrDefault(g.group(), List.of()), g.owned(stream))).toList();
                });
            }

            @Override
            public Future<Void> resize(String group, String stream, int shards, boolean rollback) {
                return cluster.reshardHostedGroup(group, stream, shards, rollback).mapEmpty();
            }
        };
    }

    /** The REST server's port. */
    public int restPort() {
        return rest.actualPort();
    }

    /** Stops answering other workers, sampling and JMX (the REST verticle stops with Vert.x). */
    public void close() {
        endpoint.close();
        sampler.close();
        retention.close();
        reshard.close();
        jmx.close();
    }
}
