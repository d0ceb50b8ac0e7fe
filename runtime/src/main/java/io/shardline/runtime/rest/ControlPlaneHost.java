package io.shardline.runtime.rest;

import com.codahale.metrics.MetricRegistry;
import io.shardline.runtime.listener.ListenerConfig;
import io.shardline.runtime.metrics.JmxMetrics;
import io.shardline.runtime.metrics.ListenerHistory;
import io.shardline.runtime.metrics.ListenerStatusSampler;
import io.shardline.runtime.metrics.RedisMetrics;
import io.shardline.runtime.metrics.ShardMetrics;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.worker.WorkerConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.function.BooleanSupplier;

/**
 * Everything of the control plane a worker runs besides its listeners: the REST server, this worker's
 * {@link ControlEndpoint} (other workers ask it for the members it hosts and to restart listeners), the JMX
 * reporter and the lag and history sampler (every {@link #SAMPLE_INTERVAL_MS} ms, each worker its own shards). Started once by the
 * worker; stopped with its Vert.x instance.
 */
public final class ControlPlaneHost {

    /** How often every worker samples the lag, pending counts and owners of its shards and the listeners' history. */
    public static final long SAMPLE_INTERVAL_MS = ListenerHistory.INTERVAL_MS;

    private final RestServerVerticle rest;
    private final ControlEndpoint endpoint;
    private final JmxMetrics jmx;
    private final ListenerStatusSampler sampler;

    private ControlPlaneHost(RestServerVerticle rest, ControlEndpoint endpoint, JmxMetrics jmx,
                             ListenerStatusSampler sampler) {
        this.rest = rest;
        this.endpoint = endpoint;
        this.jmx = jmx;
        this.sampler = sampler;
    }

    /**
     * Starts the control plane of a worker.
     *
     * @param local the listeners this worker runs (answered to other workers)
     * @param cluster the worker's view of the cluster
     * @param leader whether this worker leads now (it also exports the unowned shards)
     */
    public static Future<ControlPlaneHost> start(Vertx vertx, WorkerConfig config, RedisClient redis, Plugins plugins,
                                                 MetricRegistry registry, LocalListeners local,
                                                 ClusterView cluster, BooleanSupplier leader) {
        RestSettings settings = RestSettings.of(config);
        DefaultControlPlane plane = new DefaultControlPlane(vertx, cluster, redis, plugins, ListenerConfig.DEFINITION,
                RestConfigPolicy.of(config));
        RestServerVerticle rest = new RestServerVerticle(settings, plane, registry);
        ListenerHistory history = new ListenerHistory();
        return ControlEndpoint.start(vertx, cluster.clusterName(), cluster.workerId(), local, history)
                .compose(endpoint -> vertx.deployVerticle(rest).map(id -> {
                    ListenerStatusSampler sampler = new ListenerStatusSampler(vertx, plane, cluster.workerId(),
                            registry, new ShardMetrics(registry), history, leader, System::currentTimeMillis);
                    sampler.start(SAMPLE_INTERVAL_MS);
                    RedisMetrics.register(registry, redis);
                    return new ControlPlaneHost(rest, endpoint, JmxMetrics.start(registry), sampler);
                }));
    }

    /** The REST server's port. */
    public int restPort() {
        return rest.actualPort();
    }

    /** Stops answering other workers, sampling and JMX (the REST verticle stops with Vert.x). */
    public void close() {
        endpoint.close();
        sampler.close();
        jmx.close();
    }
}
