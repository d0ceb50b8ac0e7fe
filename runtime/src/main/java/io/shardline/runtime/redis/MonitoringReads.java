package io.shardline.runtime.redis;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The way status and lag reads reach Redis (the metrics sampler, listener and group status over REST): a
 * connection of their own ({@link ReconnectingConnection}, so they never take a connection of the pool the
 * coordinator's writes and the consumers' fenced calls use, nor a place in its wait queue) and at most
 * {@code redis.monitoring.in.flight} commands on it at once ({@link CommandGate}). Commands beyond that wait
 * in order, at most {@link #MAX_WAITING}; beyond that they fail at once, counted in {@link #refused()}.
 * Callers read in chunks ({@code ShardStatusReader}), so one large listener fills neither the queue nor Redis:
 * it is read at this pace, however many shards it has. See docs/reliability.md, "Overload". Thread-safe.
 */
public final class MonitoringReads {

    /** Commands that may wait for a place; a reader keeps at most one chunk waiting. */
    public static final int MAX_WAITING = 4_096;

    private final ReconnectingConnection connection;
    private final CommandGate gate;
    private final long timeoutMs;
    private final LongAdder commands = new LongAdder();

    MonitoringReads(Vertx vertx, ReconnectingConnection connection, int inFlight, long timeoutMs) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.timeoutMs = timeoutMs;
        this.gate = new CommandGate(vertx, inFlight, MAX_WAITING, timeoutMs,
                RedisConfig.MONITORING_IN_FLIGHT_CONFIG + ", " + MAX_WAITING + " waiting");
    }

    /**
     * Sends one read when a place is free; fails with {@link RedisTimeoutException} after the command timeout, with
     * {@link RedisDisconnectedException} when {@link #MAX_WAITING} reads wait already or the connection does not
     * come back within the command timeout.
     */
    public Future<Response> send(Request request) {
        return gate.run(() -> {
            commands.increment();
            if (connection.state() == ReconnectingConnection.State.CONNECTED) {
                return connection.send(request);
            }
            return connection.whenConnected().timeout(timeoutMs, TimeUnit.MILLISECONDS)
                    .recover(e -> Future.failedFuture(new RedisDisconnectedException("the monitoring connection to "
                            + "Redis is not back after " + timeoutMs + " ms: " + e.getMessage())))
                    .compose(v -> connection.send(request));
        });
    }

    /** The most reads that may run at once ({@code redis.monitoring.in.flight}). */
    public int limit() {
        return gate.max();
    }

    /** Reads running now. */
    public int inFlight() {
        return gate.inFlight();
    }

    /** The most reads that ran at once so far; never more than {@link #limit()}. */
    public int mostInFlight() {
        return gate.mostInFlight();
    }

    /** Reads sent so far. */
    public long commands() {
        return commands.sum();
    }

    /** Reads refused so far because {@link #MAX_WAITING} others were waiting. */
    public long refused() {
        return gate.refused();
    }

    /** Closes the connection. */
    Future<Void> close() {
        return connection.close();
    }
}
