package io.shardline.runtime.worker;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.ConfigValues;
import io.shardline.api.config.Importance;
import io.shardline.api.config.Password;
import io.shardline.api.config.Placeholders;
import io.shardline.api.config.RawConfig;
import io.shardline.api.config.Validator;
import io.shardline.runtime.redis.RedisConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The worker's settings ({@code worker.properties}): the definition of every key ({@link #DEFINITION})
 * and typed getters. Built only from a file or map that passed validation, so every getter returns a
 * valid value.
 *
 * <p>Timing defaults (see docs/configuration.md, "Choosing the timeouts"): a member heartbeats every
 * second and is expired after 10 s of silence. Kafka uses 45 s / 3 s for consumers; Shardline's
 * heartbeat is a cheap event-bus message, so it can afford ten heartbeats per session: a member
 * survives a 9 s stop-the-world pause (far above the tail of G1 pauses on normal heaps) yet a dead
 * worker's shards move within about 11 s.
 *
 * <p>Immutable and thread-safe.
 */
public final class WorkerConfig {

    public static final String CLUSTER_NAME_CONFIG = "cluster.name";
    public static final String WORKER_ID_CONFIG = "worker.id";
    public static final String CLUSTER_HOST_CONFIG = "cluster.host";
    public static final String CLUSTER_PORT_CONFIG = "cluster.port";
    public static final String CLUSTER_MEMBERS_CONFIG = "cluster.members";
    public static final String CLUSTER_FAILURE_TIMEOUT_CONFIG = "cluster.failure.timeout.ms";
    public static final String CLUSTER_MERGE_DELAY_CONFIG = "cluster.merge.delay.ms";
    public static final String PLUGIN_PATH_CONFIG = "plugin.path";
    public static final String LISTENERS_DIR_CONFIG = "listeners.dir";
    public static final String REST_BIND_CONFIG = "rest.bind";
    public static final String REST_PORT_CONFIG = "rest.port";
    public static final String REST_AUTH_TOKEN_CONFIG = "rest.auth.token";
    public static final String REST_AUTH_READ_TOKEN_CONFIG = "rest.auth.read.token";
    public static final String SESSION_TIMEOUT_CONFIG = "session.timeout.ms";
    public static final String HEARTBEAT_INTERVAL_CONFIG = "heartbeat.interval.ms";
    public static final String REBALANCE_TIMEOUT_CONFIG = "rebalance.timeout.ms";
    public static final String LOG_DIR_CONFIG = "log.dir";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9._\\-]+:\\d{1,5}|\\[[0-9a-fA-F:]+]:\\d{1,5}");

    /** Every worker key, with documentation; {@code docs/configuration.md} is generated from it. */
    public static final ConfigDef DEFINITION = define();

    private final ConfigValues values;

    private WorkerConfig(ConfigValues values) {
        this.values = values;
    }

    /**
     * Reads and validates a worker properties file.
     *
     * @throws io.shardline.api.config.ConfigException listing every problem (key, value, file, line, reason)
     */
    public static WorkerConfig load(Path file, Placeholders placeholders) {
        return new WorkerConfig(DEFINITION.parse(RawConfig.load(file), placeholders));
    }

    /** Validates already-read configuration. */
    public static WorkerConfig of(RawConfig raw, Placeholders placeholders) {
        return new WorkerConfig(DEFINITION.parse(raw, placeholders));
    }

    /** The cluster's name: Hazelcast cluster name and Redis key prefix; workers with the same name form one cluster. */
    public String clusterName() {
        return values.getString(CLUSTER_NAME_CONFIG);
    }

    /** This worker's id: the configured one, else {@code <host name>-<cluster.port>}. */
    public String workerId() {
        String configured = values.getString(WORKER_ID_CONFIG);
        if (configured != null) {
            return configured;
        }
        return localHostName() + "-" + clusterPort();
    }

    /** The interface Hazelcast and the event bus bind to and advertise. */
    public String clusterHost() {
        return values.getString(CLUSTER_HOST_CONFIG);
    }

    /** Hazelcast member port. */
    public int clusterPort() {
        return values.getInt(CLUSTER_PORT_CONFIG);
    }

    /** Hazelcast TCP/IP seed members ({@code host:port}). */
    public List<String> clusterMembers() {
        return values.getList(CLUSTER_MEMBERS_CONFIG);
    }

    /** Time without Hazelcast heartbeats after which a hung member is removed. */
    public long clusterFailureTimeoutMs() {
        return values.getLong(CLUSTER_FAILURE_TIMEOUT_CONFIG);
    }

    /** Delay of Hazelcast split-brain merge checks. */
    public long clusterMergeDelayMs() {
        return values.getLong(CLUSTER_MERGE_DELAY_CONFIG);
    }

    /** Plugin locations. */
    public List<String> pluginPath() {
        return values.getList(PLUGIN_PATH_CONFIG);
    }

    /** Directory with listener definitions. */
    public String listenersDir() {
        return values.getString(LISTENERS_DIR_CONFIG);
    }

    /** REST bind address. */
    public String restBind() {
        return values.getString(REST_BIND_CONFIG);
    }

    /** REST port (0 = any free port). */
    public int restPort() {
        return values.getInt(REST_PORT_CONFIG);
    }

    /** Bearer token the REST API requires, if any. */
    public Optional<Password> restAuthToken() {
        return Optional.ofNullable(values.getPassword(REST_AUTH_TOKEN_CONFIG));
    }

    /** Bearer token accepted for REST reads only, if any. */
    public Optional<Password> restAuthReadToken() {
        return Optional.ofNullable(values.getPassword(REST_AUTH_READ_TOKEN_CONFIG));
    }

    /** Member session timeout. */
    public int sessionTimeoutMs() {
        return values.getInt(SESSION_TIMEOUT_CONFIG);
    }

    /** Member heartbeat interval. */
    public int heartbeatIntervalMs() {
        return values.getInt(HEARTBEAT_INTERVAL_CONFIG);
    }

    /** Time a member has to revoke (drain) shards; also the bound of a graceful stop. */
    public int rebalanceTimeoutMs() {
        return values.getInt(REBALANCE_TIMEOUT_CONFIG);
    }

    /** Directory for log files and the pid file. */
    public String logDir() {
        return values.getString(LOG_DIR_CONFIG);
    }

    /** The Redis settings. */
    public RedisConfig redis() {
        return RedisConfig.from(values);
    }

    /** The validated values (for logging: {@link ConfigValues#describe()} hides secrets). */
    public ConfigValues values() {
        return values;
    }

    /** Whether {@code host} names a loopback interface (literal 127.x, ::1 or localhost; no DNS lookup). */
    public static boolean isLoopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("localhost") || h.startsWith("127.") || h.equals("::1") || h.equals("[::1]");
    }

    private static String localHostName() {
        try {
            String name = InetAddress.getLocalHost().getHostName();
            int dot = name.indexOf('.');
            return dot > 0 ? name.substring(0, dot) : name;
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private static Validator pattern(Pattern pattern, String what) {
        return Validator.custom(what, value -> {
            List<?> items = value instanceof List<?> l ? l : List.of(value);
            for (Object item : items) {
                if (!pattern.matcher(String.valueOf(item)).matches()) {
                    return Optional.of("'" + item + "' is not " + what);
                }
            }
            return Optional.empty();
        });
    }

    private static ConfigDef define() {
        String cluster = "Cluster";
        String group = "Group membership";
        String rest = "REST API";
        String plugins = "Plugins and listeners";
        ConfigDef def = new ConfigDef()
                .define(CLUSTER_NAME_CONFIG, ConfigType.STRING, "shardline", pattern(NAME, "a name of letters, digits, '.', '_', '-'"),
                        Importance.HIGH, "Name of the cluster. Workers with the same name (and reachable members) form one "
                                + "cluster; it is also the Hazelcast cluster name and part of every Redis metadata key.", cluster)
                .define(WORKER_ID_CONFIG, ConfigType.STRING, null, pattern(NAME, "a name of letters, digits, '.', '_', '-'"),
                        Importance.MEDIUM, "Id of this worker, unique in the cluster; prefix of its member ids and its "
                                + "Redis consumer names. Unset: <host name>-<cluster.port>.", cluster)
                .define(CLUSTER_HOST_CONFIG, ConfigType.STRING, "127.0.0.1", Validator.nonEmpty(), Importance.HIGH,
                        "Address Hazelcast and the event bus bind to and advertise. Loopback by default: set a reachable "
                                + "address to run workers on several machines.", cluster)
                .define(CLUSTER_PORT_CONFIG, ConfigType.INT, 5701, Validator.between(1, 65535), Importance.HIGH,
                        "Hazelcast member port of this worker (fixed, no auto-increment).", cluster)
                .define(CLUSTER_MEMBERS_CONFIG, ConfigType.LIST, "127.0.0.1:5701,127.0.0.1:5702,127.0.0.1:5703",
                        Validator.nonEmpty().and(pattern(HOST_PORT, "host:port")), Importance.HIGH,
                        "Hazelcast TCP/IP seed members (host:port, comma-separated). List every port: ranges are not "
                                + "supported. Multicast and auto-detection are always off.", cluster)
                .define(CLUSTER_FAILURE_TIMEOUT_CONFIG, ConfigType.LONG, 15_000L, Validator.between(2_000, 600_000),
                        Importance.MEDIUM, "A worker whose Hazelcast heartbeats (1 per second) stop for this long is "
                                + "removed from the cluster view (Hazelcast's default is 60 s). A killed process is "
                                + "detected faster, by connection refusal. Leadership does not wait for it: a "
                                + "successor takes the leader epoch once the leader has written nothing to Redis for "
                                + "a third of session.timeout.ms - 2 * heartbeat.interval.ms, and members skip a "
                                + "coordinator that does not answer; so it only tidies the view, and keeping it above "
                                + "the pauses a worker may come back from keeps its return from splitting the "
                                + "cluster. Rounded up to whole seconds.", cluster)
                .define(CLUSTER_MERGE_DELAY_CONFIG, ConfigType.LONG, 5_000L, Validator.between(1_000, 600_000),
                        Importance.LOW, "Delay of Hazelcast's split-brain merge checks (default 300 s/120 s there). "
                                + "Safety never depends on it: leader writes are fenced in Redis.", cluster)
                .define(SESSION_TIMEOUT_CONFIG, ConfigType.INT, 10_000, Validator.between(1_000, 600_000), Importance.HIGH,
                        "A member that has not heartbeated for this long is expired and its shards are reassigned. "
                                + "The member itself stops processing before that (lease minus two heartbeat intervals).",
                        group)
                .define(HEARTBEAT_INTERVAL_CONFIG, ConfigType.INT, 1_000, Validator.between(50, 60_000), Importance.HIGH,
                        "How often a member heartbeats to the coordinator; at most a third of session.timeout.ms.", group)
                .define(REBALANCE_TIMEOUT_CONFIG, ConfigType.INT, 30_000, Validator.between(1_000, 3_600_000),
                        Importance.MEDIUM, "Time a member has to finish in-flight work on a revoked shard and report it "
                                + "(Kafka's rebalance timeout). A member whose drain takes longer is fenced by the "
                                + "coordinator and fences itself: it stops every shard and rejoins, and the shard moves "
                                + "on. Also the bound of a graceful stop, after which the worker exits anyway.", group)
                .define(PLUGIN_PATH_CONFIG, ConfigType.LIST, "plugins", Validator.any(), Importance.HIGH,
                        "Plugin locations (directories of plugin folders or jars), comma-separated. Relative paths are "
                                + "resolved against the Shardline home directory.", plugins)
                .define(LISTENERS_DIR_CONFIG, ConfigType.STRING, "config/listeners", Validator.nonEmpty(), Importance.HIGH,
                        "Directory of listener definitions (*.properties). Relative to the Shardline home directory.",
                        plugins)
                .define(REST_BIND_CONFIG, ConfigType.STRING, "127.0.0.1", Validator.nonEmpty(), Importance.HIGH,
                        "Address the REST API listens on. A non-loopback address requires rest.auth.token.", rest)
                .define(REST_PORT_CONFIG, ConfigType.INT, 8083, Validator.between(0, 65535), Importance.HIGH,
                        "REST API port (0 = any free port).", rest)
                .define(REST_AUTH_TOKEN_CONFIG, ConfigType.PASSWORD, null, Validator.nonEmpty(), Importance.HIGH,
                        "Bearer token every REST request must carry. Use ${env:NAME} or ${file:path:key}.", rest)
                .define(REST_AUTH_READ_TOKEN_CONFIG, ConfigType.PASSWORD, null, Validator.nonEmpty(), Importance.MEDIUM,
                        "Optional bearer token accepted for REST reads (GET) only, e.g. for dashboards and "
                                + "Prometheus; writes with it get 403. Requires rest.auth.token.", rest)
                .define(LOG_DIR_CONFIG, ConfigType.STRING, "logs", Validator.nonEmpty(), Importance.LOW,
                        "Directory of the log file (<worker.id>.log) and the pid file (<worker.id>.pid) that "
                                + "bin/stop-worker uses. Relative to the working directory.", "Logging");
        RedisConfig.define(def);
        return def
                .require(HEARTBEAT_INTERVAL_CONFIG, "must be at most a third of session.timeout.ms (a member must be "
                        + "able to miss two heartbeats without being expired)",
                        v -> 3L * v.getInt(HEARTBEAT_INTERVAL_CONFIG) <= v.getInt(SESSION_TIMEOUT_CONFIG))
                .require(REST_BIND_CONFIG, "a non-loopback address requires rest.auth.token (anyone who can reach "
                        + "the port could otherwise stop listeners)",
                        v -> isLoopback(v.getString(REST_BIND_CONFIG)) || v.getPassword(REST_AUTH_TOKEN_CONFIG) != null)
                .require(REST_AUTH_READ_TOKEN_CONFIG, "requires rest.auth.token (otherwise writes would need no "
                        + "token at all)",
                        v -> v.getPassword(REST_AUTH_READ_TOKEN_CONFIG) == null || v.getPassword(REST_AUTH_TOKEN_CONFIG) != null)
                .require(CLUSTER_MEMBERS_CONFIG, "must not use loopback addresses when cluster.host is not loopback",
                        v -> isLoopback(v.getString(CLUSTER_HOST_CONFIG))
                                || v.getList(CLUSTER_MEMBERS_CONFIG).stream().noneMatch(m -> isLoopback(m.split(":")[0])));
    }
}
