package io.shardline.runtime.redis;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.ProtocolVersion;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisCluster;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's Redis connection layer over the Vert.x Redis client, adding what the client lacks:
 * a timeout on every command ({@link RedisConfig#commandTimeoutMs()}), dedicated connections that
 * reconnect with backoff ({@link #dedicated(String)}), and the server's identity
 * ({@link #serverInfo()}: version, {@code run_id}, {@link #supportsXackdel()}).
 *
 * <p>Ordinary commands go through a pool ({@link #send}, {@link #batch}); a pooled connection that
 * breaks is evicted and the next command opens a fresh one. Blocking commands ({@code BLOCK}) must
 * use a dedicated connection: they hold a pooled connection for their whole duration.
 *
 * <p>On a Redis Cluster the Vert.x client routes a command with keys to the primary of their slot and a
 * command without keys to any node: what must reach every primary goes through {@link #onAllPrimaries}, and
 * the server identity is the one of all primaries together ({@link #refreshServerInfo()}).
 *
 * <p>Thread-safe.
 */
public final class RedisClient {

    private static final Logger LOG = LoggerFactory.getLogger(RedisClient.class);

    /** Attempts of the first {@code INFO server} before {@link #connect} fails. */
    static final int STARTUP_ATTEMPTS = 3;

    private final Vertx vertx;
    private final RedisConfig config;
    private final Redis pooled;
    /** Bounds the commands in flight on {@link #pooled} in cluster mode ({@link CommandGate}); null otherwise. */
    private final CommandGate gate;
    private final RandomGenerator random;
    private volatile RedisServerInfo serverInfo;
    private final List<Redis> children = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Status and lag reads, on a connection of their own; opened at first use. */
    private MonitoringReads monitoring;
    /** Commands sent through {@link #send} and {@link #batch} (a batch counts its commands). */
    private final java.util.concurrent.atomic.LongAdder pooledCommands = new java.util.concurrent.atomic.LongAdder();
    /** Commands the pool refused at once because its wait queue ({@code redis.pool.waiting}) was full. */
    private final java.util.concurrent.atomic.LongAdder poolRefused = new java.util.concurrent.atomic.LongAdder();

    private RedisClient(Vertx vertx, RedisConfig config, RandomGenerator random) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.config = Objects.requireNonNull(config, "config");
        this.random = Objects.requireNonNull(random, "random");
        this.pooled = Redis.createClient(vertx, options(config, config.poolSize(), config.poolWaiting()));
        this.gate = config.cluster() ? new CommandGate(vertx, config.poolSize(), config.poolWaiting(),
                config.commandTimeoutMs()) : null;
    }

    /**
     * Creates the client and reads the server's identity. The first {@code INFO server} is tried
     * {@value #STARTUP_ATTEMPTS} times (with backoff) because a cold JVM on a loaded machine can
     * take longer than the command timeout for its first connection; then the future fails.
     *
     * @param random jitter for reconnect backoff
     */
    public static Future<RedisClient> connect(Vertx vertx, RedisConfig config, RandomGenerator random) {
        RedisClient client = new RedisClient(vertx, config, random);
        Backoff backoff = new Backoff(config.reconnectInitialMs(), config.reconnectMaxMs(), random);
        return client.firstServerInfo(0, backoff)
                .map(info -> {
                    LOG.info("Connected to Redis {} (run_id {}, {}, {}), XACKDEL {}", info.version(), info.runId(),
                            info.mode(), config.protocol(), info.supportsXackdel() ? "available" : "not available");
                    return client;
                })
                .recover(e -> client.close().transform(ignored -> Future.failedFuture(e)));
    }

    private Future<RedisServerInfo> firstServerInfo(int attempt, Backoff backoff) {
        return refreshServerInfo().recover(e -> {
            String where = io.shardline.api.config.Password.maskUserInfo(
                    config.cluster() ? config.clusterUrls().toString() : config.url());
            String reason = RedisErrors.describe(e);
            if (RedisErrors.isRefusal(e)) {
                // Redis answered: retrying cannot help (a wrong password or a missing permission).
                return Future.failedFuture(new RedisDisconnectedException("Redis at " + where + " refused INFO server "
                        + "for user '" + (config.user() == null ? "default" : config.user()) + "' (redis.user): "
                        + reason + RedisErrors.hint(e)));
            }
            if (attempt + 1 >= STARTUP_ATTEMPTS) {
                // The Vert.x client may not pass on why a TLS handshake failed (a command times out instead): ask a
                // plain TLS connection with the same settings.
                Future<String> why = config.tlsEnabled() && e instanceof RedisTimeoutException
                        ? tlsHandshakeProblem().map(p -> p.isEmpty() ? reason : reason + "; " + p)
                        : Future.succeededFuture(reason);
                return why.compose(r -> Future.failedFuture(new RedisDisconnectedException("cannot reach Redis at "
                        + where + " after " + STARTUP_ATTEMPTS + " attempts: " + r)));
            }
            long delay = backoff.delayMs(attempt);
            LOG.info("Redis not answering yet ({}); retrying in {} ms", reason, delay);
            Promise<Void> wait = Promise.promise();
            vertx.setTimer(delay, id -> wait.complete());
            return wait.future().compose(v -> firstServerInfo(attempt + 1, backoff));
        });
    }

    /** Why a TLS connection to the (first) server fails, in words, or "" when the handshake succeeds. */
    private Future<String> tlsHandshakeProblem() {
        java.net.URI uri = java.net.URI.create(config.cluster() ? config.clusterUrls().get(0) : config.url());
        int port = uri.getPort() > 0 ? uri.getPort() : 6379;
        NetClientOptions net = options(config, 1, 1).getNetClientOptions();
        io.vertx.core.net.NetClient client = vertx.createNetClient(net);
        return client.connect(port, uri.getHost())
                .compose(socket -> socket.close().map(""))
                .recover(e -> Future.succeededFuture("TLS handshake with " + uri.getHost() + ":" + port + " failed: "
                        + RedisErrors.describe(e)))
                .eventually(client::close);
    }

    /** Sends one command on a pooled connection; fails with {@link RedisTimeoutException} after the command timeout. */
    public Future<Response> send(Request request) {
        pooledCommands.increment();
        return Timeouts.within(vertx, gated(() -> pooled.send(request)), config.commandTimeoutMs(), name(request),
                () -> { }).onFailure(this::countRefusal);
    }

    /** Pipelines commands on one pooled connection (not atomic); one timeout for the whole batch. */
    public Future<List<Response>> batch(List<Request> requests) {
        String what = requests.isEmpty() ? "batch" : "batch of " + requests.size() + " from " + name(requests.get(0));
        pooledCommands.add(requests.size());
        return Timeouts.within(vertx, gated(() -> pooled.batch(requests)), config.commandTimeoutMs(), what, () -> { })
                .onFailure(this::countRefusal);
    }

    /**
     * The reads of status and lag ({@code redis.monitoring.in.flight} at once on a connection of their own), so
     * that monitoring never waits in, nor fills, the pool's queue. Opened at the first call.
     */
    public synchronized MonitoringReads monitoring() {
        if (monitoring == null) {
            monitoring = new MonitoringReads(vertx, dedicated("monitoring"), config.monitoringInFlight(),
                    config.commandTimeoutMs());
        }
        return monitoring;
    }

    /** Commands sent through the pool so far ({@link #send}, {@link #batch}; a batch counts its commands). */
    public long pooledCommands() {
        return pooledCommands.sum();
    }

    /** Commands the pool refused at once so far because {@code redis.pool.waiting} others were waiting. */
    public long poolRefused() {
        return poolRefused.sum();
    }

    private void countRefusal(Throwable e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("max wait queue size") || message.contains("(redis.pool.size, redis.pool.waiting)")) {
            poolRefused.increment();
        }
    }

    /**
     * The pool of a dedicated connection's client on a Redis Cluster: a cluster connection holds one connection per
     * primary and takes one more to read the slot map, so a pool of one left the connection without a link to some
     * primaries and their commands waited until they timed out (RedisClusterIntegrationTest: the first status read
     * of a shard on such a primary). A bound, not an allocation: connections open as the cluster needs them.
     */
    static final int CLUSTER_DEDICATED_POOL = 16;

    /**
     * Opens a dedicated connection that reconnects with backoff when it breaks or a command on it
     * times out. Close it when done.
     *
     * @param name for logs, e.g. {@code poller-orders-3}
     */
    public ReconnectingConnection dedicated(String name) {
        Backoff backoff = new Backoff(config.reconnectInitialMs(), config.reconnectMaxMs(), random);
        ReconnectingConnection connection = new ReconnectingConnection(vertx, name,
                () -> Redis.createClient(vertx, options(config, config.cluster() ? CLUSTER_DEDICATED_POOL : 1, 64)),
                config.commandTimeoutMs(), backoff);
        connection.start();
        return connection;
    }

    /**
     * A separate Vert.x client with its own pool of at most {@code maxConnections}, for connections held
     * for a long time ({@code Redis.connect()} leases a connection of the client's pool until it is closed,
     * so taking them from {@link #redis()} would starve {@link #send}). No timeout or reconnect is added.
     * {@link #close()} closes it too.
     */
    public Redis newClient(int maxConnections) {
        Redis client = Redis.createClient(vertx, options(config, maxConnections, Math.max(64, maxConnections * 4)));
        children.add(client);
        return client;
    }

    /**
     * Sends {@code request} to every primary of a Redis Cluster (by the client's current slot map), or to the one
     * server otherwise: for what a node needs locally, such as {@code FUNCTION LOAD}. Fails when any primary fails;
     * one timeout for all.
     *
     * @return the replies, one per primary
     */
    public Future<List<Response>> onAllPrimaries(Request request) {
        Future<List<Response>> sent = config.cluster()
                ? gated(() -> RedisCluster.create(pooled).onAllMasterNodes(request))
                : pooled.send(request).map(List::of);
        return Timeouts.within(vertx, sent, config.commandTimeoutMs(), name(request) + " on all primaries", () -> { });
    }

    /**
     * Reads {@code INFO server} again; a changed {@link RedisServerInfo#runId()} means the server restarted. On a
     * Redis Cluster it is read from every primary and the identity is theirs together
     * ({@link RedisServerInfo#ofPrimaries}): the run id changes when any primary restarts, a replica takes over
     * or a primary joins or leaves, each of which may have lost writes (the group log's or a shard's).
     */
    public Future<RedisServerInfo> refreshServerInfo() {
        Request info = Request.cmd(Command.INFO).arg("server");
        Future<RedisServerInfo> read = config.cluster()
                ? onAllPrimaries(info).map(replies -> RedisServerInfo.ofPrimaries(
                        replies.stream().map(r -> RedisServerInfo.parse(r.toString())).toList()))
                : send(info).map(reply -> RedisServerInfo.parse(reply.toString()));
        return read.map(this::remember);
    }

    private synchronized RedisServerInfo remember(RedisServerInfo info) {
        RedisServerInfo previous = serverInfo;
        if (previous != null && !previous.runId().equals(info.runId())) {
            LOG.warn("Redis restarted: run_id {} -> {}", previous.runId(), info.runId());
        }
        serverInfo = info;
        return info;
    }

    /**
     * The server identity from the last {@link #refreshServerInfo()} (never null after {@link #connect}).
     */
    public RedisServerInfo serverInfo() {
        return serverInfo;
    }

    /** Whether the server has {@code XACKDEL} (Redis 8.2+), as of the last refresh. */
    public boolean supportsXackdel() {
        return serverInfo != null && serverInfo.supportsXackdel();
    }

    /** The settings this client was made from. */
    public RedisConfig config() {
        return config;
    }

    /** The Vert.x instance the client runs on. */
    public Vertx vertx() {
        return vertx;
    }

    /** The underlying pooled Vert.x client, for what this class does not wrap (no timeout applied). */
    public Redis redis() {
        return pooled;
    }

    /** Closes the pool and the clients of {@link #newClient} (dedicated connections are closed by their owners). */
    public Future<Void> close() {
        List<Future<Void>> closing = new java.util.ArrayList<>();
        synchronized (this) {
            if (monitoring != null) {
                closing.add(monitoring.close());
            }
        }
        children.forEach(c -> closing.add(c.close()));
        closing.add(pooled.close());
        return Future.join(closing).mapEmpty();
    }

    private <T> Future<T> gated(java.util.function.Supplier<Future<T>> command) {
        return gate == null ? command.get() : gate.run(command);
    }

    /** Vert.x client options for the given pool size. */
    static RedisOptions options(RedisConfig config, int poolSize, int poolWaiting) {
        RedisOptions options = new RedisOptions()
                .setMaxPoolSize(poolSize)
                .setMaxPoolWaiting(poolWaiting)
                .setPreferredProtocolVersion(config.protocol() == RedisConfig.RespProtocol.RESP2
                        ? ProtocolVersion.RESP2 : ProtocolVersion.RESP3);
        if (config.cluster()) {
            options.setType(RedisClientType.CLUSTER).setEndpoints(config.connectClusterUrls());
        } else {
            options.setType(RedisClientType.STANDALONE).setConnectionString(config.connectUrl());
        }
        if (config.user() != null) {
            options.setUser(config.user());
        }
        if (config.password() != null) {
            options.setPassword(config.password().value());
        }
        NetClientOptions net = new NetClientOptions()
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, config.commandTimeoutMs()))
                .setTcpNoDelay(true)
                .setTcpKeepAlive(true);
        if (config.tlsEnabled()) {
            net.setSsl(true).setHostnameVerificationAlgorithm(config.tlsVerifyHostname() ? "HTTPS" : "");
            if (config.tlsCaPath() != null) {
                net.setTrustOptions(new PemTrustOptions().addCertPath(config.tlsCaPath()));
            }
            if (config.tlsKeyPath() != null) {
                net.setKeyCertOptions(new PemKeyCertOptions().addKeyPath(config.tlsKeyPath())
                        .addCertPath(config.tlsCertPath()));
            }
        }
        return options.setNetClientOptions(net);
    }

    static String name(Request request) {
        return request.command().toString().toUpperCase(java.util.Locale.ROOT);
    }
}
