package io.shardline.testkit.redis;

import io.shardline.testkit.net.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} child process on a free loopback port, for tests.
 *
 * <p>Started without persistence by default, or with AOF ({@code appendfsync always}) so that a test can
 * kill and restart the server and find its data again. {@link #restart()} keeps the port, so clients
 * configured with {@link #uri()} can reconnect. The process is stopped by its pid; a JVM shutdown hook
 * stops any server a crashed test left behind. Thread-safe.
 */
public final class RedisServer implements AutoCloseable {

    /** Environment variable naming the redis-server binary; otherwise it is looked up on the PATH. */
    public static final String BINARY_ENV = "REDIS_SERVER_BIN";

    private static final String HOST = "127.0.0.1";
    /** How long a start waits for the server to answer PING before it gives up. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    private static final int START_ATTEMPTS = 5;
    private static final Set<RedisServer> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(RedisServer::kill), "redis-server-reaper"));
    }

    private final Path binary;
    private final boolean aof;
    private final Path dir;
    private final List<String> extraArgs;
    private int port;
    /** The TLS port, or 0 when the server speaks plain TCP only. */
    private final int tlsPort;
    private Process process;
    private RedisVersion version;

    private RedisServer(Path binary, boolean aof, Path dir, List<String> extraArgs, int tlsPort) {
        this.tlsPort = tlsPort;
        this.binary = binary;
        this.aof = aof;
        this.dir = dir;
        this.extraArgs = List.copyOf(extraArgs);
    }

    /**
     * Starts a server on a free loopback port and waits until it answers PING.
     *
     * @param aof true to turn on the append-only file, so data survives {@link #kill()} and {@link #restart()}
     * @throws RedisUnavailableException when no redis-server binary is installed (one line saying how to install it)
     */
    public static RedisServer start(boolean aof) {
        return start(aof, List.of());
    }

    /**
     * Starts a server like {@link #start(boolean)} with more command-line options (e.g. the cluster options of a
     * {@link RedisCluster} node), passed again on every restart.
     */
    static RedisServer start(boolean aof, List<String> extraArgs) {
        Path binary = findBinary().orElseThrow(RedisUnavailableException::new);
        try {
            RedisServer server = new RedisServer(binary, aof, Files.createTempDirectory("shardline-redis-"), extraArgs, 0);
            server.startOnFreePort();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a data directory for redis-server", e);
        }
    }

    /**
     * Starts a server that speaks TLS on {@link #tlsPort()} (and plain TCP on {@link #port()}, for the test's own
     * setup), with the given PEM files; with {@code authClients} it requires a client certificate signed by the CA
     * ({@code tls-auth-clients yes}, Redis's default).
     */
    public static RedisServer startTls(Path cert, Path key, Path ca, boolean authClients) {
        Path binary = findBinary().orElseThrow(RedisUnavailableException::new);
        int tls = FreePorts.one();
        List<String> args = List.of("--tls-port", Integer.toString(tls), "--tls-cert-file", cert.toString(),
                "--tls-key-file", key.toString(), "--tls-ca-cert-file", ca.toString(),
                "--tls-auth-clients", authClients ? "yes" : "no");
        try {
            RedisServer server = new RedisServer(binary, false, Files.createTempDirectory("shardline-redis-"), args, tls);
            server.startOnFreePort();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a data directory for redis-server", e);
        }
    }

    /** The TLS port of a server from {@link #startTls}. */
    public int tlsPort() {
        if (tlsPort == 0) {
            throw new IllegalStateException("this redis-server was started without TLS");
        }
        return tlsPort;
    }

    /** The redis-server binary: {@value #BINARY_ENV}, else the first {@code redis-server} on the PATH. */
    public static Optional<Path> findBinary() {
        String env = System.getenv(BINARY_ENV);
        if (env != null && !env.isBlank()) {
            Path p = Path.of(env);
            return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("") + ":/usr/bin:/usr/local/bin:/usr/sbin";
        return Stream.of(path.split(":"))
                .filter(s -> !s.isBlank())
                .map(s -> Path.of(s, "redis-server"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** The server's data directory (its append-only files and {@code redis.log}); {@link #close} deletes it. */
    public Path dir() {
        return dir;
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return "redis://" + HOST + ":" + port();
    }

    /** The loopback host the server listens on. */
    public String host() {
        return HOST;
    }

    /** The port, stable across {@link #restart()}. */
    public synchronized int port() {
        return port;
    }

    /** The server's version, read from {@code INFO server} when it started. */
    public synchronized RedisVersion version() {
        return version;
    }

    /** The pid of the running server process. */
    public synchronized long pid() {
        if (process == null) {
            throw new IllegalStateException("redis-server is not running");
        }
        return process.pid();
    }

    /** True while the server process is alive. */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** True when this server was started with the append-only file on. */
    public boolean aof() {
        return aof;
    }

    /** Opens a probe connection (for assertions and setup in tests). */
    public RespProbe probe() throws IOException {
        return RespProbe.connect(HOST, port(), 2_000);
    }

    /** Stops the server gracefully (SIGTERM, then SIGKILL after a timeout) and starts it again on the same port. */
    public synchronized void restart() {
        stop();
        startOnSamePort();
    }

    /** Stops the server gracefully by its pid: SIGTERM, then SIGKILL if it has not exited within 5 s. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        ProcessHandle handle = process.toHandle();
        handle.destroy();
        if (!waitFor(STOP_TIMEOUT)) {
            handle.destroyForcibly();
            waitFor(STOP_TIMEOUT);
        }
        process = null;
        LIVE.remove(this);
    }

    /** Kills the server with SIGKILL, as a crash would (data written to the AOF survives). */
    public synchronized void kill() {
        if (process == null) {
            return;
        }
        process.toHandle().destroyForcibly();
        waitFor(STOP_TIMEOUT);
        process = null;
        LIVE.remove(this);
    }

    /** Starts a stopped or killed server again on the same port. */
    public synchronized void startAgain() {
        if (process == null) {
            startOnSamePort();
        }
    }

    /** Stops the server and deletes its data directory. */
    @Override
    public synchronized void close() {
        stop();
        deleteDir();
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void startOnFreePort() {
        RuntimeException last = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            port = FreePorts.one();
            try {
                launch();
                return;
            } catch (RuntimeException e) {
                last = e; // most likely a port race: another process took the port; try another one
            }
        }
        throw last;
    }

    private void startOnSamePort() {
        RuntimeException last = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            try {
                launch();
                return;
            } catch (RuntimeException e) {
                last = e; // the old socket may linger briefly; try again
            }
        }
        throw last;
    }

    private void launch() {
        List<String> cmd = new ArrayList<>(List.of(
                binary.toString(),
                "--port", Integer.toString(port),
                "--bind", HOST,
                "--protected-mode", "no",
                "--daemonize", "no",
                "--dir", dir.toString(),
                "--logfile", "",
                "--save", ""));
        if (aof) {
            cmd.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
        } else {
            cmd.addAll(List.of("--appendonly", "no"));
        }
        cmd.addAll(extraArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()));
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + binary, e);
        }
        LIVE.add(this);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                LIVE.remove(this);
                process = null;
                throw new IllegalStateException("redis-server exited during start on port " + port
                        + " (see " + dir.resolve("redis.log") + ")");
            }
            Optional<RedisVersion> v = tryHandshake();
            if (v.isPresent()) {
                version = v.get();
                return;
            }
            pause();
        }
        kill();
        throw new IllegalStateException("redis-server did not answer PING on port " + port + " within " + START_TIMEOUT);
    }

    private Optional<RedisVersion> tryHandshake() {
        try (RespProbe probe = RespProbe.connect(HOST, port, 500)) {
            if (!"PONG".equals(probe.call("PING"))) {
                return Optional.empty();
            }
            return Optional.of(parseVersion((String) probe.call("INFO", "server")));
        } catch (RespProbe.RedisErrorReply e) {
            return Optional.empty(); // LOADING: the AOF is being replayed
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static RedisVersion parseVersion(String info) {
        Map<String, String> fields = new ConcurrentHashMap<>();
        for (String line : info.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        String v = fields.get("redis_version");
        if (v == null) {
            throw new IllegalStateException("INFO server has no redis_version field");
        }
        return RedisVersion.parse(v);
    }

    private static void pause() {
        try {
            Thread.sleep(5); // poll interval while waiting for the server socket; not a test condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting redis-server", e);
        }
    }


    private void deleteDir() {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temp directory left behind is harmless
        }
    }

    @Override
    public String toString() {
        return "redis-server[" + uri() + (aof ? ", aof" : "") + "]";
    }
}
