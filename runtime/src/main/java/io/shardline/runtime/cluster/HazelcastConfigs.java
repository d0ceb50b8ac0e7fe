package io.shardline.runtime.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MultiMapConfig;
import com.hazelcast.config.NetworkConfig;
import java.util.UUID;

/**
 * Builds the Hazelcast configuration of a worker: TCP/IP join with an explicit member list,
 * multicast and auto-detection off, join and failure detection tuned to seconds, short split-brain
 * merge delays, and the maps the Vert.x cluster manager needs. Stateless.
 */
public final class HazelcastConfigs {

    /** Member attribute carrying the Shardline worker id. */
    public static final String WORKER_ID_ATTRIBUTE = "shardline.worker.id";

    /** Member attribute the Vert.x cluster manager reads its node id from. */
    public static final String VERTX_NODE_ID_ATTRIBUTE = "__vertx.nodeId";

    private HazelcastConfigs() {
    }

    /**
     * The configuration for one worker.
     *
     * @param join how the member joins ({@link JoinPlan#decide}, from what the seed probe found)
     */
    public static Config forWorker(ClusterSettings settings, JoinPlan join) {
        Config config = new Config()
                .setClusterName(settings.security().hazelcastClusterName(settings.clusterName()))
                .setInstanceName("shardline-" + settings.workerId() + "-" + settings.port());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        // A derived cluster name is the join credential: keep it out of the prefix of every Hazelcast log line.
        config.setProperty("hazelcast.logging.details.enabled", Boolean.toString(settings.security().secret() == null));
        config.setProperty("hazelcast.logging.type", "slf4j");
        // The worker stops Hazelcast itself, after its members have left their groups.
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        // Join at once instead of waiting 5-20 s for simultaneous starters (measured: 10 s -> 4-7 s).
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.max.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", Long.toString(seconds(settings.failureTimeoutMs())));
        config.setProperty("hazelcast.merge.first.run.delay.seconds", Long.toString(seconds(settings.mergeDelayMs())));
        config.setProperty("hazelcast.merge.next.run.delay.seconds", Long.toString(seconds(settings.mergeDelayMs())));
        // Start-time cuts: nothing in Shardline reads Hazelcast's own metrics or its health monitor, and both
        // start collectors and threads on every member (docs/operations.md, "Start time").
        config.getMetricsConfig().setEnabled(false);
        config.setProperty("hazelcast.health.monitoring.level", "OFF");
        config.setProperty("hazelcast.local.localAddress", settings.host());
        config.setProperty("hazelcast.socket.bind.any", "false");

        NetworkConfig network = config.getNetworkConfig();
        network.setPort(settings.port()).setPortAutoIncrement(false);
        if (settings.ports().memberPublicPort() != 0) {
            network.setPublicAddress(settings.host() + ":" + settings.ports().memberPublicPort());
        }
        if (settings.hostIsIpv4()) {
            network.getInterfaces().setEnabled(true).addInterface(settings.host());
        }
        JoinConfig joinConfig = network.getJoin();
        joinConfig.getMulticastConfig().setEnabled(false);
        joinConfig.getAutoDetectionConfig().setEnabled(false);
        joinConfig.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(join.timeoutSeconds());
        settings.members().forEach(member -> joinConfig.getTcpIpConfig().addMember(member));
        if (join.formAtOnce()) {
            // Hazelcast's joiner makes a member whose required member is itself the master without asking anyone; the
            // seed list above still serves its search for other clusters to merge with.
            joinConfig.getTcpIpConfig().setRequiredMember(settings.memberAddress());
        }

        config.getMemberAttributeConfig().setAttribute(WORKER_ID_ATTRIBUTE, settings.workerId());
        // The Vert.x cluster manager, given a ready instance, reads its node id from this attribute.
        config.getMemberAttributeConfig().setAttribute(VERTX_NODE_ID_ATTRIBUTE, UUID.randomUUID().toString());
        settings.attributes().forEach((k, v) -> config.getMemberAttributeConfig().setAttribute(k, v));

        // What vertx-hazelcast's default-cluster.xml defines; the cluster manager relies on it.
        config.addMultiMapConfig(new MultiMapConfig("__vertx.subs").setBackupCount(1)
                .setValueCollectionType(MultiMapConfig.ValueCollectionType.SET));
        config.addMapConfig(new MapConfig("__vertx.haInfo").setBackupCount(1));
        config.addMapConfig(new MapConfig("__vertx.nodeInfo").setBackupCount(1));
        return config;
    }

    private static long seconds(long ms) {
        return Math.max(1, (ms + 999) / 1000);
    }
}
