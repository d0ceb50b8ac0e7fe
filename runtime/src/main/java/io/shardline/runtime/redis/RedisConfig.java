package io.shardline.runtime.redis;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.ConfigValues;
import io.shardline.api.config.Importance;
import io.shardline.api.config.Password;
import io.shardline.api.config.Validator;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The worker's Redis settings: the {@code redis.*} keys ({@link #define(ConfigDef)}) and their typed
 * values ({@link #from(ConfigValues)}).
 *
 * <p>Immutable.
 *
 * @param url standalone server URL, {@code redis://host:port[/db]} or {@code rediss://} for TLS
 * @param clusterUrls seed URLs of a Redis Cluster; when non-empty the client runs in cluster mode
 * @param user ACL user name, or null
 * @param password password, or null
 * @param tls whether to use TLS (also implied by a {@code rediss://} URL)
 * @param tlsCaPath PEM file with the CA certificates to trust, or null for the JVM default trust store
 * @param tlsKeyPath PEM file with the client's private key (TLS client authentication), or null
 * @param tlsCertPath PEM file with the client's certificate chain (TLS client authentication), or null
 * @param tlsVerifyHostname whether the server certificate must match the host name
 * @param protocol the RESP version to speak
 * @param commandTimeoutMs how long one command may take before its future fails
 * @param poolSize connections in the pool for ordinary commands
 * @param poolWaiting commands that may wait for a pooled connection before failing at once
 * @param reconnectInitialMs first delay before reconnecting a dedicated connection
 * @param reconnectMaxMs largest delay between reconnect attempts
 * @param monitoringInFlight status and lag reads ({@link MonitoringReads}) in flight at once, on their own connection
 */
public record RedisConfig(
        String url,
        List<String> clusterUrls,
        String user,
        Password password,
        boolean tls,
        String tlsCaPath,
        String tlsKeyPath,
        String tlsCertPath,
        boolean tlsVerifyHostname,
        RespProtocol protocol,
        long commandTimeoutMs,
        int poolSize,
        int poolWaiting,
        long reconnectInitialMs,
        long reconnectMaxMs,
        int monitoringInFlight) {

    /** The RESP protocol version. */
    public enum RespProtocol {
        /** RESP2: arrays everywhere; works with every Redis version; replies parse the same in every mode. */
        RESP2,
        /** RESP3: maps, sets and push messages (Redis 6+). */
        RESP3
    }

    public static final String URL_CONFIG = "redis.url";
    public static final String CLUSTER_URLS_CONFIG = "redis.cluster.urls";
    public static final String USER_CONFIG = "redis.user";
    public static final String PASSWORD_CONFIG = "redis.password";
    public static final String TLS_ENABLED_CONFIG = "redis.tls.enabled";
    public static final String TLS_CA_PATH_CONFIG = "redis.tls.ca.path";
    public static final String TLS_KEY_PATH_CONFIG = "redis.tls.key.path";
    public static final String TLS_CERT_PATH_CONFIG = "redis.tls.cert.path";
    public static final String TLS_VERIFY_HOSTNAME_CONFIG = "redis.tls.verify.hostname";
    public static final String PROTOCOL_CONFIG = "redis.protocol";
    public static final String COMMAND_TIMEOUT_CONFIG = "redis.command.timeout.ms";
    public static final String POOL_SIZE_CONFIG = "redis.pool.size";
    public static final String POOL_WAITING_CONFIG = "redis.pool.waiting";
    public static final String RECONNECT_INITIAL_CONFIG = "redis.reconnect.backoff.initial.ms";
    public static final String RECONNECT_MAX_CONFIG = "redis.reconnect.backoff.max.ms";
    public static final String MONITORING_IN_FLIGHT_CONFIG = "redis.monitoring.in.flight";
    /** Default of {@value #MONITORING_IN_FLIGHT_CONFIG}. */
    public static final int MONITORING_IN_FLIGHT_DEFAULT = 16;

    private static final String GROUP = "Redis";

    /** Validates the values. */
    public RedisConfig {
        Objects.requireNonNull(url, "url");
        clusterUrls = List.copyOf(clusterUrls);
        Objects.requireNonNull(protocol, "protocol");
        if ((tlsKeyPath == null) != (tlsCertPath == null)) {
            throw new IllegalArgumentException("a TLS client key needs its certificate and the other way round");
        }
        if (commandTimeoutMs <= 0 || poolSize <= 0 || reconnectInitialMs <= 0 || reconnectMaxMs < reconnectInitialMs) {
            throw new IllegalArgumentException("invalid Redis settings: timeout, pool size and backoff must be positive");
        }
        if (monitoringInFlight <= 0) {
            throw new IllegalArgumentException(MONITORING_IN_FLIGHT_CONFIG + " must be positive, got "
                    + monitoringInFlight);
        }
    }

    /** Settings with the default {@value #MONITORING_IN_FLIGHT_CONFIG}. */
    public RedisConfig(String url, List<String> clusterUrls, String user, Password password, boolean tls,
                       String tlsCaPath, String tlsKeyPath, String tlsCertPath, boolean tlsVerifyHostname,
                       RespProtocol protocol, long commandTimeoutMs, int poolSize, int poolWaiting,
                       long reconnectInitialMs, long reconnectMaxMs) {
        this(url, clusterUrls, user, password, tls, tlsCaPath, tlsKeyPath, tlsCertPath, tlsVerifyHostname, protocol,
                commandTimeoutMs, poolSize, poolWaiting, reconnectInitialMs, reconnectMaxMs,
                MONITORING_IN_FLIGHT_DEFAULT);
    }

    /** Settings for a standalone server at {@code url} with the defaults of every other key (tests). */
    public static RedisConfig standalone(String url) {
        return new RedisConfig(url, List.of(), null, null, false, null, null, null, true, RespProtocol.RESP2,
                2_000, 8, 256, 100, 5_000);
    }

    /** Settings for a Redis Cluster reached through the {@code seeds} with the defaults of every other key (tests). */
    public static RedisConfig cluster(List<String> seeds) {
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("a Redis Cluster needs at least one seed URL");
        }
        return new RedisConfig(seeds.get(0), seeds, null, null, false, null, null, null, true, RespProtocol.RESP2,
                2_000, 8, 256, 100, 5_000);
    }

    /** Adds the {@code redis.*} keys to {@code def}. */
    public static ConfigDef define(ConfigDef def) {
        return def
                .define(URL_CONFIG, ConfigType.STRING, "redis://127.0.0.1:6379", redisUrl(), Importance.HIGH,
                        "URL of a standalone Redis server: redis://host:port[/db], or rediss:// for TLS. "
                                + "Ignored when redis.cluster.urls is set.", GROUP)
                .define(CLUSTER_URLS_CONFIG, ConfigType.LIST, "", listOf(redisUrl()), Importance.HIGH,
                        "Seed URLs of a Redis Cluster (comma-separated); when set the worker talks cluster protocol. "
                                + "All Shardline keys are hash-tagged per shard.", GROUP)
                .define(USER_CONFIG, ConfigType.STRING, null, Validator.nonEmpty(), Importance.MEDIUM,
                        "ACL user name (Redis 6+). Unset: the default user.", GROUP)
                .define(PASSWORD_CONFIG, ConfigType.PASSWORD, null, Validator.nonEmpty(), Importance.HIGH,
                        "Password (AUTH). Use ${env:NAME} or ${file:path:key} rather than writing it here.", GROUP)
                .define(TLS_ENABLED_CONFIG, ConfigType.BOOLEAN, false, Validator.any(), Importance.MEDIUM,
                        "Use TLS, also with a redis:// URL (the worker then connects as to rediss://). A rediss:// "
                                + "URL turns it on too.", GROUP)
                .define(TLS_CA_PATH_CONFIG, ConfigType.STRING, null, readableFile(), Importance.MEDIUM,
                        "PEM file with the CA certificate(s) to trust. Unset: the JVM's default trust store.", GROUP)
                .define(TLS_KEY_PATH_CONFIG, ConfigType.STRING, null, readableFile(), Importance.MEDIUM,
                        "PEM file with the worker's private key (PKCS#8 or PKCS#1), for a server that authenticates "
                                + "clients (tls-auth-clients yes, Redis's default). Requires redis.tls.cert.path.", GROUP)
                .define(TLS_CERT_PATH_CONFIG, ConfigType.STRING, null, readableFile(), Importance.MEDIUM,
                        "PEM file with the worker's client certificate (chain) for redis.tls.key.path.", GROUP)
                .define(TLS_VERIFY_HOSTNAME_CONFIG, ConfigType.BOOLEAN, true, Validator.any(), Importance.LOW,
                        "Check that the server certificate matches the host name. Turn off only for tests.", GROUP)
                .define(PROTOCOL_CONFIG, ConfigType.STRING, "resp2", Validator.oneOf("resp2", "resp3"),
                        Importance.LOW, "RESP version. resp2 works with every server and gives one reply shape; "
                                + "resp3 turns XREADGROUP replies into maps.", GROUP)
                .define(COMMAND_TIMEOUT_CONFIG, ConfigType.LONG, 2_000L, Validator.between(10, 600_000),
                        Importance.MEDIUM, "How long one command may take before it fails (the Vert.x client has "
                                + "no timeout of its own). A dedicated connection that times out is closed and "
                                + "reopened. Keep blocking reads (BLOCK) well below it.", GROUP)
                .define(POOL_SIZE_CONFIG, ConfigType.INT, 8, Validator.between(1, 1024), Importance.LOW,
                        "Pooled connections for ordinary (non-blocking) commands.", GROUP)
                .define(POOL_WAITING_CONFIG, ConfigType.INT, 256, Validator.between(1, 100_000), Importance.LOW,
                        "Commands that may wait for a pooled connection; beyond it a command fails at once.", GROUP)
                .define(RECONNECT_INITIAL_CONFIG, ConfigType.LONG, 100L, Validator.between(1, 60_000),
                        Importance.LOW, "First delay before a dedicated connection reconnects; doubles per failure.",
                        GROUP)
                .define(RECONNECT_MAX_CONFIG, ConfigType.LONG, 5_000L, Validator.between(1, 600_000),
                        Importance.LOW, "Largest delay between reconnect attempts of a dedicated connection.", GROUP)
                .define(MONITORING_IN_FLIGHT_CONFIG, ConfigType.INT, MONITORING_IN_FLIGHT_DEFAULT,
                        Validator.between(1, 1024), Importance.LOW, "Status and lag reads (the metrics sampler, "
                                + "listener and group status over REST) in flight at once. They use a connection "
                                + "of their own and wait for each other, never for the coordinator's or the "
                                + "consumers' commands, so a listener with many shards is read at this pace "
                                + "instead of filling redis.pool.waiting.", GROUP)
                .require(RECONNECT_MAX_CONFIG, "must be at least " + RECONNECT_INITIAL_CONFIG,
                        v -> v.getLong(RECONNECT_MAX_CONFIG) >= v.getLong(RECONNECT_INITIAL_CONFIG))
                .require(TLS_KEY_PATH_CONFIG, "redis.tls.key.path and redis.tls.cert.path go together: set both or "
                                + "neither", v -> v.isSet(TLS_KEY_PATH_CONFIG) == v.isSet(TLS_CERT_PATH_CONFIG))
                .require(TLS_CA_PATH_CONFIG, "TLS settings need TLS: set redis.tls.enabled=true or use a rediss:// URL",
                        v -> !(v.isSet(TLS_CA_PATH_CONFIG) || v.isSet(TLS_KEY_PATH_CONFIG)) || tlsOn(v))
                .require(CLUSTER_URLS_CONFIG, "set either redis.url or redis.cluster.urls, not both",
                        v -> !v.isSet(URL_CONFIG) || v.getList(CLUSTER_URLS_CONFIG).isEmpty());
    }

    /** Typed settings from validated values. */
    public static RedisConfig from(ConfigValues v) {
        return new RedisConfig(
                v.getString(URL_CONFIG),
                v.getList(CLUSTER_URLS_CONFIG),
                v.getString(USER_CONFIG),
                v.getPassword(PASSWORD_CONFIG),
                v.getBoolean(TLS_ENABLED_CONFIG),
                v.getString(TLS_CA_PATH_CONFIG),
                v.getString(TLS_KEY_PATH_CONFIG),
                v.getString(TLS_CERT_PATH_CONFIG),
                v.getBoolean(TLS_VERIFY_HOSTNAME_CONFIG),
                RespProtocol.valueOf(v.getString(PROTOCOL_CONFIG).toUpperCase(java.util.Locale.ROOT)),
                v.getLong(COMMAND_TIMEOUT_CONFIG),
                v.getInt(POOL_SIZE_CONFIG),
                v.getInt(POOL_WAITING_CONFIG),
                v.getLong(RECONNECT_INITIAL_CONFIG),
                v.getLong(RECONNECT_MAX_CONFIG),
                v.getInt(MONITORING_IN_FLIGHT_CONFIG));
    }

    /** Whether the client runs in Redis Cluster mode. */
    public boolean cluster() {
        return !clusterUrls.isEmpty();
    }

    /** Whether TLS is on, by the flag or by a {@code rediss://} URL. */
    public boolean tlsEnabled() {
        return tls || url.startsWith("rediss://") || clusterUrls.stream().anyMatch(u -> u.startsWith("rediss://"));
    }

    /** A copy with another command timeout. */
    public RedisConfig withCommandTimeoutMs(long timeoutMs) {
        return new RedisConfig(url, clusterUrls, user, password, tls, tlsCaPath, tlsKeyPath, tlsCertPath, tlsVerifyHostname,
                protocol, timeoutMs, poolSize, poolWaiting, reconnectInitialMs, reconnectMaxMs, monitoringInFlight);
    }

    /** The URL the client connects to: {@code url} as {@code rediss://} when TLS is on by the flag. */
    public String connectUrl() {
        return asTls(url);
    }

    /** The cluster seed URLs the client connects to, as {@code rediss://} when TLS is on by the flag. */
    public List<String> connectClusterUrls() {
        return clusterUrls.stream().map(this::asTls).toList();
    }

    private String asTls(String u) {
        return tls && u.startsWith("redis://") ? "rediss://" + u.substring("redis://".length()) : u;
    }

    private static boolean tlsOn(ConfigValues v) {
        return v.getBoolean(TLS_ENABLED_CONFIG) || v.getString(URL_CONFIG).startsWith("rediss://")
                || v.getList(CLUSTER_URLS_CONFIG).stream().anyMatch(u -> u.startsWith("rediss://"));
    }

    /** A path to a regular file this user can read (also the cluster TLS files of the worker configuration). */
    public static Validator readableFile() {
        return Validator.custom("readable file", value -> {
            java.nio.file.Path path = java.nio.file.Path.of(String.valueOf(value));
            if (!java.nio.file.Files.isRegularFile(path)) {
                return Optional.of("is not a file (" + path.toAbsolutePath() + ")");
            }
            return java.nio.file.Files.isReadable(path) ? Optional.empty()
                    : Optional.of("cannot be read by this user (" + path.toAbsolutePath() + ")");
        });
    }

    @Override
    public String toString() {
        return "RedisConfig[url=" + Password.maskUserInfo(url) + ", clusterUrls="
                + Password.maskUserInfo(String.valueOf(clusterUrls)) + ", user=" + user
                + ", password=" + (password == null ? "none" : Password.HIDDEN) + ", tls=" + tlsEnabled()
                + ", protocol=" + protocol + ", commandTimeoutMs=" + commandTimeoutMs + "]";
    }

    private static Validator redisUrl() {
        return Validator.custom("redis:// or rediss:// URL", value -> {
            String text = String.valueOf(value);
            try {
                URI uri = new URI(text);
                if (!"redis".equals(uri.getScheme()) && !"rediss".equals(uri.getScheme())) {
                    return Optional.of("must start with redis:// or rediss://");
                }
                if (uri.getHost() == null) {
                    return Optional.of("has no host (expected redis://host:port)");
                }
                return Optional.empty();
            } catch (java.net.URISyntaxException e) {
                return Optional.of("is not a valid URL: " + e.getReason());
            }
        });
    }

    private static Validator listOf(Validator element) {
        return Validator.custom("list of " + element.describe(), value -> {
            for (Object item : (List<?>) value) {
                Optional<String> problem = element.check(item);
                if (problem.isPresent()) {
                    return Optional.of("'" + item + "' " + problem.get());
                }
            }
            return Optional.empty();
        });
    }
}
