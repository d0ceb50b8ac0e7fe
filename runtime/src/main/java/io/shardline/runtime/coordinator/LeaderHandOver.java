package io.shardline.runtime.coordinator;

import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The graceful hand-over of the coordinator, both sides. A stopping leader asks the next oldest worker to claim the
 * leader epoch at once ({@link CoordinatorWire#TAKE_OVER}) and keeps answering until that claim fenced it in Redis,
 * then resigns and answers {@code NOT_COORDINATOR} naming the successor ({@link CoordinatorWire#COORDINATOR_HINT})
 * until every member it knew asked once, so members move to the successor without a gap in their leases, before
 * this worker leaves the cluster. The successor claims at once, whatever the liveness of the stopping holder, and keeps
 * leading whatever the cluster view says (leadership is the leader epoch; see {@code CoordinatorVerticle}). If the successor leaves the view before it answered, the hand-over ends at once
 * (the cluster view decides, as after a crash).
 *
 * <p>Lifecycle of the stopping side: {@code SERVING -> HANDING_OVER -> REDIRECTING -> STOPPED}, or {@code SERVING ->
 * STOPPED} for a worker that does not lead or has no other worker to hand over to; it changes only in
 * {@link #transitionTo}. Context-confined: used only on the coordinator host's context.
 */
final class LeaderHandOver {

    /** Where the stopping side of the hand-over stands. */
    enum State {
        /** This worker is not stopping. */
        SERVING,
        /** The successor was asked to claim; the host still leads and answers. */
        HANDING_OVER,
        /** The host resigned and names the successor until each member it knew asked once. */
        REDIRECTING,
        /** This worker stops and never claims again (terminal). */
        STOPPED
    }

    /** What the hand-over sees and does of the coordinator host it belongs to; called on the host's context. */
    interface Host {
        /** The host's role now. */
        LeaderRole role();

        /** The leader epoch the host holds (meaningful while it leads). */
        long leaderEpoch();

        /** Discards the coordinator for good ({@link LeaderRole#RESIGNED}), logging {@code why}. */
        void resign(String why);

        /** The successor's claim: claims the leader epoch at once; completes once this attempt ended either way. */
        Future<Void> claimHandedOver(String from);
    }

    private static final Logger LOG = LoggerFactory.getLogger(LeaderHandOver.class);

    private final Context context;
    private final String clusterName;
    private final String workerId;
    private final LongSupplier clockMs;
    private final int heartbeatIntervalMs;
    private final Host host;

    private State state = State.SERVING;
    /** The worker this one hands (or handed) leadership over to, named in NOT_COORDINATOR answers; or null. */
    private String successor;
    /** Members of the stopping coordinator not yet told where the coordinator went. */
    private final Set<String> toRedirect = new HashSet<>();
    /** Completed once every member in {@link #toRedirect} asked (or the wait timed out); null before REDIRECTING. */
    private Promise<Void> redirected;
    /** Completed by the successor's answer, or failed when it leaves the view first; non-null only in HANDING_OVER. */
    private Promise<Void> answer;
    /** Completed when the stopping side reached {@code STOPPED}. */
    private final Promise<Void> stopped = Promise.promise();

    LeaderHandOver(Context context, String clusterName, String workerId, LongSupplier clockMs, int heartbeatIntervalMs,
                   Host host) {
        this.context = context;
        this.clusterName = clusterName;
        this.workerId = workerId;
        this.clockMs = clockMs;
        this.heartbeatIntervalMs = heartbeatIntervalMs;
        this.host = host;
    }

    /** Whether this worker is stopping (it must not claim, nor take a hand-over). */
    boolean stopping() {
        return state != State.SERVING;
    }

    /** Where the stopping side stands (for tests). */
    State state() {
        return state;
    }

    /** The worker leadership was handed over to, once this worker started stopping. */
    Optional<String> successor() {
        return Optional.ofNullable(successor);
    }

    /**
     * Starts the stopping side, given the current cluster view (or null) and the members the coordinator knows: if the
     * host leads, the next oldest worker is asked to claim at once (waiting at most {@code timeoutMs} for its answer)
     * and the host answers until it has; then the host resigns and this names the successor to every member that
     * asks, until each member it knew asked once or {@code 2 x heartbeat.interval.ms} passed. A host that does not
     * lead just resigns. Completes on {@code STOPPED}; a second call returns the same future.
     */
    Future<Void> begin(LeaderView view, Set<String> members, long timeoutMs) {
        if (state != State.SERVING) {
            return stopped.future();
        }
        Optional<String> next = view == null ? Optional.empty() : view.members().stream()
                .map(ClusterMember::workerId).filter(w -> !w.equals(workerId)).findFirst();
        if (host.role() != LeaderRole.LEADER || next.isEmpty()) {
            successor = next.orElse(null);
            String why = host.role() == LeaderRole.LEADER ? "stopping; no other worker to hand over to" : "stopping";
            host.resign(why);
            transitionTo(State.STOPPED);
            return stopped.future();
        }
        successor = next.get();
        toRedirect.addAll(members);
        transitionTo(State.HANDING_OVER);
        long started = clockMs.getAsLong();
        LOG.info("Coordinator on {}: handing leadership (epoch {}) over to {}", workerId, host.leaderEpoch(), successor);
        answer = Promise.promise();
        Promise<Void> answered = answer;
        context.owner().eventBus().<JsonObject>request(CoordinatorWire.address(clusterName, successor),
                        new JsonObject().put(CoordinatorWire.OP, CoordinatorWire.TAKE_OVER).put("from", workerId),
                        new DeliveryOptions().setSendTimeout(Math.max(1, timeoutMs)))
                .onComplete(ar -> context.runOnContext(x -> {
                    if (ar.succeeded()) {
                        answered.tryComplete();
                    } else {
                        answered.tryFail(ar.cause());
                    }
                }));
        answered.future().onComplete(ar -> {
            answer = null;
            transitionTo(State.REDIRECTING);
            host.resign(ar.succeeded()
                    ? "handed over to " + successor + " in " + (clockMs.getAsLong() - started) + " ms"
                    : "hand-over to " + successor + " failed (" + ar.cause().getMessage() + "); the cluster view decides");
            awaitRedirected(2L * heartbeatIntervalMs).onComplete(v -> transitionTo(State.STOPPED));
        });
        return stopped.future();
    }

    private Future<Void> awaitRedirected(long timeoutMs) {
        if (toRedirect.isEmpty()) {
            return Future.succeededFuture();
        }
        redirected = Promise.promise();
        long timer = context.owner().setTimer(Math.max(1, timeoutMs), id -> {
            if (!toRedirect.isEmpty()) {
                LOG.info("Coordinator on {}: {} member(s) did not ask within {} ms: {}", workerId, toRedirect.size(),
                        timeoutMs, toRedirect);
            }
            redirected.tryComplete();
        });
        return redirected.future().onComplete(ar -> context.owner().cancelTimer(timer));
    }

    /** Notes that {@code memberId} was answered {@code NOT_COORDINATOR} (so told where the coordinator went). */
    void redirected(String memberId) {
        if (toRedirect.remove(memberId) && toRedirect.isEmpty() && redirected != null) {
            redirected.tryComplete();
        }
    }

    /** The successor's side: claim now, answer once leading (or failing; the host's retries go on). */
    Future<Void> takeOver(Message<JsonObject> message) {
        if (stopping()) {
            message.fail(ErrorCode.NOT_COORDINATOR.code(), "worker " + workerId + " is stopping too");
            return Future.succeededFuture();
        }
        if (host.role() == LeaderRole.LEADER) {
            message.reply(new JsonObject().put("leaderEpoch", host.leaderEpoch()));
            return Future.succeededFuture();
        }
        return host.claimHandedOver(message.body().getString("from", "")).onComplete(ar -> {
            if (host.role() == LeaderRole.LEADER) {
                message.reply(new JsonObject().put("leaderEpoch", host.leaderEpoch()));
            } else {
                message.fail(ErrorCode.NOT_COORDINATOR.code(), "worker " + workerId + " could not claim yet (role "
                        + host.role() + "); it keeps trying");
            }
        });
    }

    /** A new cluster view: a successor that left it will never answer, so the hand-over ends now, not at its timeout. */
    void viewChanged(LeaderView next) {
        if (answer != null && next.members().stream().noneMatch(m -> m.workerId().equals(successor))) {
            answer.tryFail(new IllegalStateException("worker " + successor + " left the cluster"));
        }
    }

    private void transitionTo(State next) {
        boolean legal = switch (next) {
            case SERVING -> false;
            case HANDING_OVER -> state == State.SERVING;
            case REDIRECTING -> state == State.HANDING_OVER;
            case STOPPED -> state == State.SERVING || state == State.REDIRECTING;
        };
        if (!legal) {
            throw new IllegalStateException("hand-over on " + workerId + ": illegal transition " + state + " -> " + next);
        }
        LOG.debug("Hand-over on {}: {} -> {}", workerId, state, next);
        state = next;
        if (next == State.STOPPED) {
            stopped.complete();
        }
    }
}
