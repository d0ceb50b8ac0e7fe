package io.shardline.runtime.redis;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A dedicated Redis connection (for blocking reads and other long-lived use) that comes back by
 * itself: when the socket closes, fails, or a command on it exceeds the command timeout, the
 * connection is closed and reopened after an exponential backoff with jitter. Commands sent while
 * it is reconnecting fail at once with {@link RedisDisconnectedException}; callers retry after
 * {@link #whenConnected()}. {@link #onConnect(Runnable)} hooks run after every (re)connect, e.g. to
 * check the server's {@code run_id} or re-create a consumer group.
 *
 * <p>Each (re)connect uses its own single-connection Vert.x client, so closing it really closes the
 * socket (a pooled connection would be returned to its pool instead).
 *
 * <p>Lifecycle: {@code CONNECTING -> CONNECTED -> CONNECTING ... -> CLOSED}. Thread-safe.
 */
public final class ReconnectingConnection {

    /** Connection states. */
    public enum State {
        /** Opening a socket, or waiting for the backoff to do so. */
        CONNECTING,
        /** Usable. */
        CONNECTED,
        /** Closed by its owner; terminal. */
        CLOSED;

        private Set<State> previousValidStates() {
            return switch (this) {
                case CONNECTING -> Set.of(CONNECTED, CONNECTING);
                case CONNECTED -> Set.of(CONNECTING);
                case CLOSED -> Set.of(CONNECTING, CONNECTED, CLOSED);
            };
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(ReconnectingConnection.class);

    private final Vertx vertx;
    private final String name;
    private final Supplier<Redis> clientFactory;
    private final long timeoutMs;
    private final Backoff backoff;
    private final List<Runnable> connectHooks = new CopyOnWriteArrayList<>();

    private State state = State.CONNECTING;
    private Redis client;
    private RedisConnection connection;
    private int generation;
    private int attempt;
    private long connects;
    private Promise<Void> connected = Promise.promise();

    ReconnectingConnection(Vertx vertx, String name, Supplier<Redis> clientFactory, long timeoutMs, Backoff backoff) {
        this.vertx = vertx;
        this.name = name;
        this.clientFactory = clientFactory;
        this.timeoutMs = timeoutMs;
        this.backoff = backoff;
    }

    void start() {
        attemptConnect();
    }

    /** The current state. */
    public synchronized State state() {
        return state;
    }

    /** How many times a connection was established (1 after the first connect). */
    public synchronized long connects() {
        return connects;
    }

    /** Completes when the connection is (again) usable; fails if it is closed first. */
    public synchronized Future<Void> whenConnected() {
        return connected.future();
    }

    /** Runs {@code hook} after every successful (re)connect, on a Vert.x thread. */
    public void onConnect(Runnable hook) {
        connectHooks.add(hook);
    }

    /** Sends a command; fails fast while reconnecting, and reconnects if the command times out. */
    public Future<Response> send(Request request) {
        RedisConnection conn;
        int gen;
        synchronized (this) {
            if (state != State.CONNECTED) {
                return Future.failedFuture(new RedisDisconnectedException(
                        "Redis connection " + name + " is " + state.name().toLowerCase(java.util.Locale.ROOT)));
            }
            conn = connection;
            gen = generation;
        }
        String command = RedisClient.name(request);
        return Timeouts.within(vertx, conn.send(request), timeoutMs, command,
                () -> drop(gen, command + " timed out after " + timeoutMs + " ms"));
    }

    /** Pipelines commands on this connection (not atomic); one timeout for the whole batch. */
    public Future<List<Response>> batch(List<Request> requests) {
        RedisConnection conn;
        int gen;
        synchronized (this) {
            if (state != State.CONNECTED) {
                return Future.failedFuture(new RedisDisconnectedException("Redis connection " + name + " is not connected"));
            }
            conn = connection;
            gen = generation;
        }
        return Timeouts.within(vertx, conn.batch(requests), timeoutMs, "batch",
                () -> drop(gen, "batch timed out after " + timeoutMs + " ms"));
    }

    /** Closes the connection for good. */
    public Future<Void> close() {
        Redis toClose;
        Promise<Void> waiting;
        synchronized (this) {
            if (state == State.CLOSED) {
                return Future.succeededFuture();
            }
            transitionTo(State.CLOSED, "closed by owner");
            toClose = client;
            client = null;
            connection = null;
            generation++;
            waiting = connected;
        }
        waiting.tryFail(new RedisDisconnectedException("Redis connection " + name + " was closed"));
        return toClose == null ? Future.succeededFuture() : toClose.close();
    }

    private void attemptConnect() {
        Redis candidate = clientFactory.get();
        int gen;
        synchronized (this) {
            if (state == State.CLOSED) {
                candidate.close();
                return;
            }
            client = candidate;
            gen = ++generation;
        }
        Timeouts.within(vertx, candidate.connect(), timeoutMs, "CONNECT", () -> { }).onComplete(ar -> {
            if (ar.failed()) {
                candidate.close();
                scheduleReconnect(gen, ar.cause().getMessage());
                return;
            }
            RedisConnection conn = ar.result();
            Promise<Void> ready;
            synchronized (this) {
                if (gen != generation || state == State.CLOSED) {
                    candidate.close();
                    return;
                }
                connection = conn;
                attempt = 0;
                connects++;
                transitionTo(State.CONNECTED, "connected");
                ready = connected;
            }
            conn.exceptionHandler(e -> drop(gen, "error: " + e.getMessage()));
            conn.endHandler(v -> drop(gen, "connection closed by the server"));
            ready.tryComplete();
            connectHooks.forEach(Runnable::run);
        });
    }

    private void drop(int gen, String why) {
        Redis toClose;
        synchronized (this) {
            if (gen != generation || state != State.CONNECTED) {
                return;
            }
            transitionTo(State.CONNECTING, why);
            toClose = client;
            client = null;
            connection = null;
            connected = Promise.promise();
        }
        toClose.close();
        scheduleReconnect(gen, why);
    }

    private void scheduleReconnect(int gen, String why) {
        long delay;
        synchronized (this) {
            if (state == State.CLOSED || gen != generation) {
                return;
            }
            delay = backoff.delayMs(attempt++);
        }
        LOG.info("Redis connection {}: reconnecting in {} ms (attempt {}; {})", name, delay, attempt, why);
        vertx.setTimer(delay, id -> attemptConnect());
    }

    private void transitionTo(State next, String reason) {
        if (!next.previousValidStates().contains(state)) {
            throw new IllegalStateException("Redis connection " + name + ": illegal transition " + state + " -> " + next);
        }
        if (next != state) {
            LOG.info("Redis connection {}: {} -> {} ({})", name, state, next, reason);
        }
        state = next;
    }
}
