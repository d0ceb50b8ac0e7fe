package io.shardline.runtime.control;

import io.shardline.runtime.config.Version;
import io.shardline.runtime.metrics.ListenerHistory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This worker's end of {@link ControlWire}: answers other workers' (and its own REST layer's) requests about
 * the listeners it runs, from {@link LocalListeners}, and its share of their history ({@link ListenerHistory}),
 * its version and uptime; and re-reads the stored state when a refresh is
 * published. Requests fail with code 400 when malformed, 500 when the local action failed. Thread-safe.
 */
public final class ControlEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ControlEndpoint.class);

    private final String workerId;
    private final LocalListeners local;
    private final ListenerHistory history;
    private final MessageConsumer<JsonObject> direct;
    private final MessageConsumer<JsonObject> broadcast;

    private ControlEndpoint(String workerId, LocalListeners local, ListenerHistory history,
                            MessageConsumer<JsonObject> direct, MessageConsumer<JsonObject> broadcast) {
        this.workerId = workerId;
        this.local = local;
        this.history = history;
        this.direct = direct;
        this.broadcast = broadcast;
    }

    /**
     * Registers both addresses; completes once the registrations reached the cluster.
     *
     * @param history this worker's share of the listeners' recent history
     */
    public static Future<ControlEndpoint> start(Vertx vertx, String clusterName, String workerId, LocalListeners local,
                                                ListenerHistory history) {
        Objects.requireNonNull(local, "local");
        Objects.requireNonNull(history, "history");
        ControlEndpoint[] self = new ControlEndpoint[1];
        MessageConsumer<JsonObject> direct = vertx.eventBus().consumer(ControlWire.address(clusterName, workerId),
                m -> self[0].onDirect(m));
        MessageConsumer<JsonObject> broadcast = vertx.eventBus().consumer(ControlWire.broadcastAddress(clusterName),
                m -> self[0].onBroadcast(m));
        self[0] = new ControlEndpoint(workerId, local, history, direct, broadcast);
        return Future.all(direct.completion(), broadcast.completion()).map(v -> self[0]);
    }

    private void onDirect(Message<JsonObject> message) {
        JsonObject body = message.body();
        String op = body == null ? "" : body.getString(ControlWire.OP, "");
        switch (op) {
            case ControlWire.MEMBERS -> local.members(body.getString("listener")).onComplete(ar -> {
                if (ar.succeeded()) {
                    message.reply(ControlWire.membersReply(workerId, Version.current(),
                            ManagementFactory.getRuntimeMXBean().getUptime(), local.names(), ar.result()));
                } else {
                    message.fail(500, "worker " + workerId + ": " + ar.cause().getMessage());
                }
            });
            case ControlWire.RESTART -> {
                String listener = body.getString("listener");
                if (listener == null) {
                    message.fail(400, "restart request without 'listener'");
                    return;
                }
                String member = body.getString("member");
                (member == null ? local.restart(listener, body.getBoolean("onlyFailed", false))
                        : local.restartMember(listener, member)).onComplete(ar -> {
                    if (ar.succeeded()) {
                        message.reply(ControlWire.restartReply(ar.result()));
                    } else {
                        message.fail(500, "worker " + workerId + " could not restart " + listener + ": "
                                + ar.cause().getMessage());
                    }
                });
            }
            case ControlWire.LOG_LEVEL -> {
                try {
                    LoggerLevels.set(body.getString("logger", ""), body.getString("level"));
                    LOG.info("Log level of {} set to {} (REST, cluster scope)", body.getString("logger"),
                            body.getString("level"));
                    message.reply(new JsonObject().put("worker_id", workerId));
                } catch (ControlPlaneException e) {
                    message.fail(400, "worker " + workerId + ": " + e.getMessage());
                }
            }
            case ControlWire.HISTORY -> {
                String listener = body.getString("listener");
                if (listener == null) {
                    message.fail(400, "history request without 'listener'");
                    return;
                }
                message.reply(ControlWire.historyReply(history.points(listener)));
            }
            default -> message.fail(400, "unknown control operation '" + op + "'");
        }
    }

    private void onBroadcast(Message<JsonObject> message) {
        JsonObject body = message.body();
        if (body != null && ControlWire.REFRESH.equals(body.getString(ControlWire.OP))) {
            local.refresh();
        } else {
            LOG.debug("Ignoring control broadcast {}", body);
        }
    }

    /** Unregisters both addresses. */
    @Override
    public void close() {
        direct.unregister();
        broadcast.unregister();
    }
}
