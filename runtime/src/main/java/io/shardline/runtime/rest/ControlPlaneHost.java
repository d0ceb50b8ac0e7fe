package io.shardline.runtime.rest;

import com.codahale.metrics.MetricRegistry;
import io.shardline.runtime.listener.Listener;
import io.shardline.runtime.listener.ListenerConfig;
import io.shardline.runtime.metrics.JmxMetrics;
import io.shardline.runtime.metrics.ListenerStatusSampler;
import io.shardline.runtime.metrics.ShardMetrics;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.worker.WorkerConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything of the control plane a worker runs: the REST server, the target-state applier (polling every
 * heartbeat interval), the JMX reporter and the lag sampler (leader only, every
 * {@value #SAMPLE_INTERVAL_MS} ms). Started once by the worker; stopped with its Vert.x instance.
 */
public final class ControlPlaneHost {

    /** How often the leader samples shard lag, pending counts and owners into gauges. */
    public static final long SAMPLE_INTERVAL_MS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(ControlPlaneHost.class);

    private final RestServerVerticle rest;
    private final TargetStateApplier applier;
    private final JmxMetrics jmx;
    private final ListenerStatusSampler sampler;

    private ControlPlaneHost(RestServerVerticle rest, TargetStateApplier applier, JmxMetrics jmx,
                             ListenerStatusSampler sampler) {
        this.rest = rest;
        this.applier = applier;
        this.jmx = jmx;
        this.sampler = sampler;
    }

    /**
     * Starts the control plane of a worker.
     *
     * @param listeners the listeners the worker runs (target states are applied to them)
     * @param cluster the worker's view of the cluster
     * @param leader whether this worker leads now (it alone samples lag)
     */
    public static Future<ControlPlaneHost> start(Vertx vertx, WorkerConfig config, RedisClient redis, Plugins plugins,
                                                 MetricRegistry registry, List<Listener> listeners,
                                                 ClusterView cluster, BooleanSupplier leader) {
        RestSettings settings = RestSettings.of(config);
        DefaultControlPlane plane = new DefaultControlPlane(vertx, cluster, redis, plugins, ListenerConfig.DEFINITION);
        RestServerVerticle rest = new RestServerVerticle(settings, plane, registry);
        return vertx.deployVerticle(rest).map(id -> {
            TargetStateApplier applier = new TargetStateApplier(vertx, plane.states(), () -> listeners,
                    (listener, state) -> LOG.info("Listener {} target state is now {}", listener, state));
            applier.start(config.heartbeatIntervalMs());
            ListenerStatusSampler sampler = new ListenerStatusSampler(vertx, plane, new ShardMetrics(registry), leader);
            sampler.start(SAMPLE_INTERVAL_MS);
            return new ControlPlaneHost(rest, applier, JmxMetrics.start(registry), sampler);
        });
    }

    /** The REST server's port. */
    public int restPort() {
        return rest.actualPort();
    }

    /** Stops polling, sampling and JMX (the REST verticle stops with Vert.x). */
    public void close() {
        applier.close();
        sampler.close();
        jmx.close();
    }
}
