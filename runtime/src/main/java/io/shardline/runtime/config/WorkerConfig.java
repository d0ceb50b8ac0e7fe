package io.shardline.runtime.config;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.ConfigValues;
import io.shardline.api.config.Importance;
import io.shardline.api.config.Password;
import io.shardline.api.config.Placeholders;
import io.shardline.api.config.RawConfig;
import io.shardline.api.config.Validator;
import io.shardline.runtime.cluster.ClusterPorts;
import io.shardline.runtime.cluster.ClusterSecurity;
import io.shardline.runtime.cluster.ClusterSettings;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.runtime.retention.RetentionSettings;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
    // Forwarded ports (NAT, published container ports, the partition tests' proxies): see ClusterPorts.
    public static final String CLUSTER_PUBLIC_PORT_CONFIG = "cluster.public.port";
    public static final String CLUSTER_BUS_PORT_CONFIG = "cluster.bus.port";
    public static final String CLUSTER_BUS_PUBLIC_PORT_CONFIG = "cluster.bus.public.port";
    public static final String CLUSTER_FAILURE_TIMEOUT_CONFIG = "cluster.failure.timeout.ms";
    public static final String CLUSTER_MERGE_DELAY_CONFIG = "cluster.merge.delay.ms";
    // Cluster security (docs/security.md, "Cluster port"): the join secret and event-bus TLS, see ClusterSecurity.
    public static final String CLUSTER_SECRET_CONFIG = "cluster.secret";
    public static final String CLUSTER_TLS_KEY_PATH_CONFIG = "cluster.tls.key.path";
    public static final String CLUSTER_TLS_CERT_PATH_CONFIG = "cluster.tls.cert.path";
    public static final String CLUSTER_TLS_CA_PATH_CONFIG = "cluster.tls.ca.path";
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
    // Assignors (docs/assignors.md): how the leader runs them.
    public static final String ASSIGNOR_TIMEOUT_CONFIG = "assignor.timeout.ms";
    public static final String RACK_CONFIG = "rack";
    public static final String REDIS_ZONES_CONFIG = "redis.zones";
    // REST security: token file, HTTPS, placeholders allowed in REST configurations (docs/security.md).
    public static final String REST_AUTH_TOKEN_FILE_CONFIG = "rest.auth.token.file";
    public static final String REST_AUTH_LOOPBACK_OPEN_CONFIG = "rest.auth.loopback.open";
    public static final String REST_TLS_KEY_CONFIG = "rest.tls.key";
    public static final String REST_TLS_CERT_CONFIG = "rest.tls.cert";
    public static final String REST_CONFIG_ALLOWED_ENV_CONFIG = "rest.config.allowed.env";
    public static final String REST_CONFIG_ALLOWED_DIRS_CONFIG = "rest.config.allowed.dirs";

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

    /** The ports other workers reach this one at, and the event bus's own port. */
    public ClusterPorts clusterPorts() {
        return new ClusterPorts(values.getInt(CLUSTER_PUBLIC_PORT_CONFIG), values.getInt(CLUSTER_BUS_PORT_CONFIG),
                values.getInt(CLUSTER_BUS_PUBLIC_PORT_CONFIG));
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

    /** The join secret and event-bus TLS of the cluster ports. */
    public ClusterSecurity clusterSecurity() {
        return new ClusterSecurity(values.getPassword(CLUSTER_SECRET_CONFIG), values.getString(CLUSTER_TLS_KEY_PATH_CONFIG),
                values.getString(CLUSTER_TLS_CERT_PATH_CONFIG), values.getString(CLUSTER_TLS_CA_PATH_CONFIG));
    }

    /** The Hazelcast settings of this worker, with {@code attributes} published to the other members. */
    public ClusterSettings clusterSettings(Map<String, String> attributes) {
        return new ClusterSettings(clusterName(), workerId(), clusterHost(), clusterPort(), clusterMembers(),
                clusterFailureTimeoutMs(), clusterMergeDelayMs(), attributes, clusterSecurity(), clusterPorts());
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

    /**
     * The file of the generated REST token (used when {@code rest.auth.token} is not set):
     * {@code rest.auth.token.file}, else {@code <log.dir>/<worker.id>.token}.
     */
    public Path restAuthTokenFile() {
        String configured = values.getString(REST_AUTH_TOKEN_FILE_CONFIG);
        return configured != null ? Path.of(configured) : Path.of(logDir()).resolve(workerId() + ".token");
    }

    /** Whether a loopback REST API without {@code rest.auth.token} serves without any token (no generated one). */
    public boolean restAuthLoopbackOpen() {
        return values.getBoolean(REST_AUTH_LOOPBACK_OPEN_CONFIG);
    }

    /** The PEM private key of the REST API's HTTPS, if HTTPS is on. */
    public Optional<Path> restTlsKey() {
        return Optional.ofNullable(values.getString(REST_TLS_KEY_CONFIG)).map(Path::of);
    }

    /** The PEM certificate (chain) of the REST API's HTTPS, if HTTPS is on. */
    public Optional<Path> restTlsCert() {
        return Optional.ofNullable(values.getString(REST_TLS_CERT_CONFIG)).map(Path::of);
    }

    /** The environment variables a configuration sent over REST may read with {@code ${env:NAME}}. */
    public List<String> restConfigAllowedEnv() {
        return values.getList(REST_CONFIG_ALLOWED_ENV_CONFIG);
    }

    /** The directories whose files a configuration sent over REST may read with {@code ${file:path:key}}. */
    public List<String> restConfigAllowedDirs() {
        return values.getList(REST_CONFIG_ALLOWED_DIRS_CONFIG);
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

    /** The pacing of the leader's retention task. */
    public RetentionSettings retention() {
        return RetentionSettings.from(values);
    }

    /** The Redis settings. */
    public RedisConfig redis() {
        return RedisConfig.from(values);
    }

    /** The validated values (for logging: {@link ConfigValues#describe()} hides secrets). */
    public ConfigValues values() {
        return values;
    }

    /**
     * Whether {@code host} names loopback interfaces only: decided by address, after resolving a name
     * ({@link InetAddress#isLoopbackAddress()} for every address it resolves to), so {@code 127.evil.example}
     * is not loopback unless it resolves there and {@code 0:0:0:0:0:0:0:1} is. An unresolvable name is not.
     * Brackets around an IPv6 literal are accepted.
     */
    public static boolean isLoopback(String host) {
        String h = host.trim();
        if (h.length() > 1 && h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.isEmpty()) {
            return false;
        }
        try {
            InetAddress[] all = InetAddress.getAllByName(h);
            return all.length > 0 && Arrays.stream(all).allMatch(InetAddress::isLoopbackAddress);
        } catch (UnknownHostException | SecurityException e) {
            return false;
        }
    }

    /** The host of a {@code host:port} or {@code [v6]:port} member address. */
    private static String hostOf(String member) {
        int colon = member.lastIndexOf(':');
        return colon > 0 ? member.substring(0, colon) : member;
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

    /** Time a plugin assignor may take to compute a group's target on the leader. */
    public long assignorTimeoutMs() {
        return values.getLong(ASSIGNOR_TIMEOUT_CONFIG);
    }

    /** This worker's zone (rack), if set. */
    public Optional<String> rack() {
        String rack = values.getString(RACK_CONFIG);
        return rack == null || rack.isBlank() ? Optional.empty() : Optional.of(rack.trim());
    }

    /** The {@code redis.zones} entries: one bare zone (a single Redis), or {@code host:port=zone} per node. */
    public List<String> redisZones() {
        return values.getList(REDIS_ZONES_CONFIG);
    }

    private static void defineAssignorKeys(ConfigDef def) {
        def.define(RACK_CONFIG, ConfigType.STRING, null, pattern(NAME, "a zone name of letters, digits, '.', '_', '-'"),
                Importance.MEDIUM, "The zone (rack, availability zone) this worker runs in, as Kafka's client.rack. With "
                        + "redis.zones set, the range, sticky and cooperative-sticky assignors prefer giving a shard to a "
                        + "member in the zone of the Redis node that holds it (cross-zone traffic costs money and time); "
                        + "shown per member in GET /groups/{group}. Unset: no zone.", "Zones");
        def.define(REDIS_ZONES_CONFIG, ConfigType.LIST, "", Validator.custom(
                        "one zone name (a single Redis), or host:port=zone per Redis Cluster node", WorkerConfig::checkZones),
                Importance.MEDIUM, "Which zone each Redis node is in, so that shards can be read in their own zone (see "
                        + "rack). A single Redis: its zone, e.g. az1. A Redis Cluster: host:port=zone for every primary "
                        + "and replica, with host:port as the node announces itself in CLUSTER SLOTS (e.g. "
                        + "10.0.1.5:6379=az1,10.0.2.5:6379=az2); a shard's zones are those of the nodes serving its slot, "
                        + "read when a listener starts. Unset: no zone information.", "Zones");
        def.define(ASSIGNOR_TIMEOUT_CONFIG, ConfigType.LONG, 10_000L, Validator.between(100, 600_000), Importance.MEDIUM,
                "Time a plugin assignor (one from plugin.path) may take to compute a group's target on the leader; it runs "
                        + "on its own thread meanwhile, so heartbeats are still answered. One that throws, runs longer (its "
                        + "thread is interrupted) or returns an invalid assignment leaves the group on its previous target, "
                        + "shown under assignor_error in GET /groups/{group} and as ASSIGNOR_FAILED in the audit trail. The "
                        + "built-in assignors run inline and are not limited.", "Assignors");
    }

    private static Optional<String> checkZones(Object value) {
        List<?> entries = (List<?>) value;
        for (Object o : entries) {
            String entry = String.valueOf(o).trim();
            int eq = entry.lastIndexOf('=');
            String zone = eq < 0 ? entry : entry.substring(eq + 1);
            if (!NAME.matcher(zone).matches()) {
                return Optional.of("'" + entry + "': zone '" + zone + "' is not a name of letters, digits, '.', '_', '-'");
            }
            if (eq < 0 && entries.size() > 1) {
                return Optional.of("'" + entry + "': with several entries each must be host:port=zone");
            }
            if (eq >= 0 && !HOST_PORT.matcher(entry.substring(0, eq)).matches()) {
                return Optional.of("'" + entry + "': '" + entry.substring(0, eq) + "' is not host:port");
            }
        }
        return Optional.empty();
    }

    private static Validator absolutePaths() {
        return Validator.custom("absolute directory paths", value -> {
            for (Object item : (List<?>) value) {
                if (!Path.of(String.valueOf(item)).isAbsolute()) {
                    return Optional.of("'" + item + "' is not an absolute path");
                }
            }
            return Optional.empty();
        });
    }

    private static void defineRestSecurity(ConfigDef def, String rest) {
        def.define(REST_AUTH_TOKEN_FILE_CONFIG, ConfigType.STRING, null, Validator.nonEmpty(), Importance.MEDIUM,
                        "Where the worker keeps its generated REST token when rest.auth.token is not set: created on "
                                + "first start with a random token, readable by the worker's user only (mode 0600), "
                                + "reused on later starts. bin/* scripts and tests read it. Unset: "
                                + "<log.dir>/<worker.id>.token.", rest)
                .define(REST_AUTH_LOOPBACK_OPEN_CONFIG, ConfigType.BOOLEAN, false, Validator.any(), Importance.LOW,
                        "true: a loopback REST API without rest.auth.token needs no token at all (as before tokens "
                                + "were generated), for local scripts that send none. Any local process and, through "
                                + "DNS tricks, web pages may then reach it; cross-origin and non-JSON writes are still "
                                + "refused. Not allowed with a non-loopback rest.bind.", rest)
                .define(REST_TLS_KEY_CONFIG, ConfigType.STRING, null, Validator.nonEmpty(), Importance.MEDIUM,
                        "PEM private key (PKCS#8 or PKCS#1) of the REST API: set it and rest.tls.cert to serve "
                                + "HTTPS instead of HTTP.", rest)
                .define(REST_TLS_CERT_CONFIG, ConfigType.STRING, null, Validator.nonEmpty(), Importance.MEDIUM,
                        "PEM certificate (chain) of the REST API's HTTPS, for the key of rest.tls.key.", rest)
                .define(REST_CONFIG_ALLOWED_ENV_CONFIG, ConfigType.LIST, "", Validator.any(), Importance.MEDIUM,
                        "Environment variables that listener configurations sent over REST may read with "
                                + "${env:NAME} (comma-separated names). Any other ${env:...} in a REST configuration "
                                + "is refused (400), so that REST callers cannot read this worker's environment.", rest)
                .define(REST_CONFIG_ALLOWED_DIRS_CONFIG, ConfigType.LIST, "", absolutePaths(), Importance.MEDIUM,
                        "Directories (absolute, comma-separated) whose properties files listener configurations "
                                + "sent over REST may read with ${file:/dir/name.properties:key}. Any other "
                                + "${file:...} in a REST configuration is refused (400).", rest);
    }

    private static ConfigDef define() {
        String cluster = "Cluster";
        String clusterSecurity = "Cluster security";
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
                .define(CLUSTER_PUBLIC_PORT_CONFIG, ConfigType.INT, 0, Validator.between(0, 65535), Importance.LOW,
                        "Port at which the other workers reach this worker's cluster.port, when a forwarder stands "
                                + "between them (NAT, a container's published port). 0: cluster.port.", cluster)
                .define(CLUSTER_BUS_PORT_CONFIG, ConfigType.INT, 0, Validator.between(0, 65535), Importance.LOW,
                        "Port the event bus (coordinator heartbeats between workers) binds to on cluster.host. 0: a "
                                + "free port chosen at start.", cluster)
                .define(CLUSTER_BUS_PUBLIC_PORT_CONFIG, ConfigType.INT, 0, Validator.between(0, 65535),
                        Importance.LOW, "Port at which the other workers reach this worker's event bus, when a "
                                + "forwarder stands between them. Requires cluster.bus.port. 0: cluster.bus.port.",
                        cluster)
                .define(CLUSTER_MEMBERS_CONFIG, ConfigType.LIST, "127.0.0.1:5701,127.0.0.1:5702,127.0.0.1:5703",
                        Validator.nonEmpty().and(pattern(HOST_PORT, "host:port")), Importance.HIGH,
                        "Hazelcast TCP/IP seed members (host:port, comma-separated). List every port: ranges are not "
                                + "supported. Multicast and auto-detection are always off. The first seed, started "
                                + "when no seed listens, forms the cluster at once; the others look for it for 1 s "
                                + "(docs/operations.md, \"Start time\").", cluster)
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
                .define(CLUSTER_SECRET_CONFIG, ConfigType.PASSWORD, null, Validator.nonEmpty().and(Validator.custom(
                                "at least 16 characters", v -> (v instanceof Password p ? p.value() : String.valueOf(v)).length() >= 16
                                        ? Optional.empty()
                                        : Optional.of("is shorter than 16 characters"))), Importance.HIGH,
                        "Shared secret of the cluster (at least 16 characters; use ${env:NAME} or ${file:path:key}). "
                                + "The Hazelcast cluster name is derived from it, so Hazelcast refuses a member or "
                                + "client without it at join. Same value on every worker. See docs/security.md.",
                        clusterSecurity)
                .define(CLUSTER_TLS_KEY_PATH_CONFIG, ConfigType.STRING, null, RedisConfig.readableFile(),
                        Importance.HIGH, "PEM private key of this worker's event-bus certificate. With "
                                + "cluster.tls.cert.path and cluster.tls.ca.path the clustered event bus speaks TLS and "
                                + "requires a client certificate signed by the CA from every peer.", clusterSecurity)
                .define(CLUSTER_TLS_CERT_PATH_CONFIG, ConfigType.STRING, null, RedisConfig.readableFile(),
                        Importance.HIGH, "PEM certificate (chain) for cluster.tls.key.path, signed by the CA of "
                                + "cluster.tls.ca.path; it serves both as server and as client certificate.",
                        clusterSecurity)
                .define(CLUSTER_TLS_CA_PATH_CONFIG, ConfigType.STRING, null, RedisConfig.readableFile(),
                        Importance.HIGH, "PEM CA certificate(s) that sign the workers' event-bus certificates. Every "
                                + "certificate it signed is accepted as a member: use a CA for this cluster only.",
                        clusterSecurity)
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
        defineAssignorKeys(def);
        defineRestSecurity(def, rest);
        RedisConfig.define(def);
        RetentionSettings.define(def);
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
                .require(CLUSTER_TLS_KEY_PATH_CONFIG, "cluster.tls.key.path, cluster.tls.cert.path and "
                        + "cluster.tls.ca.path go together: set all three or none",
                        v -> v.isSet(CLUSTER_TLS_KEY_PATH_CONFIG) == v.isSet(CLUSTER_TLS_CERT_PATH_CONFIG)
                                && v.isSet(CLUSTER_TLS_KEY_PATH_CONFIG) == v.isSet(CLUSTER_TLS_CA_PATH_CONFIG))
                .require(REST_AUTH_LOOPBACK_OPEN_CONFIG, "true requires a loopback rest.bind and no rest.auth.token",
                        v -> !v.getBoolean(REST_AUTH_LOOPBACK_OPEN_CONFIG) || (isLoopback(v.getString(REST_BIND_CONFIG))
                                && v.getPassword(REST_AUTH_TOKEN_CONFIG) == null))
                .require(REST_TLS_CERT_CONFIG, "rest.tls.key and rest.tls.cert go together: set both for HTTPS, or "
                        + "neither", v -> (v.getString(REST_TLS_KEY_CONFIG) == null) == (v.getString(REST_TLS_CERT_CONFIG) == null))
                .require(CLUSTER_BUS_PUBLIC_PORT_CONFIG, "requires cluster.bus.port (a forwarder needs a fixed port to "
                        + "forward to)", v -> v.getInt(CLUSTER_BUS_PUBLIC_PORT_CONFIG) == 0
                                || v.getInt(CLUSTER_BUS_PORT_CONFIG) != 0)
                .require(CLUSTER_MEMBERS_CONFIG, "must not use loopback addresses when cluster.host is not loopback",
                        v -> isLoopback(v.getString(CLUSTER_HOST_CONFIG))
                                || v.getList(CLUSTER_MEMBERS_CONFIG).stream().noneMatch(m -> isLoopback(hostOf(m))));
    }
}
