package io.shardline.runtime.coordinator;

import io.shardline.api.assignor.Assignor;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.store.GroupLogState;
import io.shardline.runtime.store.RecordCodec;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the leader role's claims ({@link LeaderAction.Claim}) for the coordinator host: load the group log,
 * replay it off the event loop, run the claim script ({@link LeaderLog#claim}), and report to the
 * {@link LeaderRoleMachine} what came of it (won, refused, failed and retried after its back-off); a won claim
 * activates the replayed coordinator with the leases it inherits ({@link LeaderAction.Lead}) and hands it to the
 * host.
 *
 * <p>Context-confined: used only on the coordinator host's context.
 */
final class LeaderClaim {

    /** What the claim needs of the coordinator host; called on the host's context. */
    interface Host {
        /** Runs {@code op} after the host's operations queued before it (requests, ticks, claims). */
        Future<Void> enqueue(Supplier<Future<Void>> op);

        /** The host leads with {@code fresh} (already activated; the machine is {@code LEADER}). */
        void led(GroupCoordinator fresh);
    }

    private static final Logger LOG = LoggerFactory.getLogger(LeaderClaim.class);

    private final Vertx vertx;
    private final String workerId;
    private final LeaderLog leaderLog;
    private final LeaderRoleMachine machine;
    private final RecordCodec codec;
    private final Function<String, Assignor> assignors;
    private final AssignorTiming timing;
    private final LongSupplier clockMs;
    private final Host host;

    LeaderClaim(Vertx vertx, String workerId, LeaderLog leaderLog, LeaderRoleMachine machine, RecordCodec codec,
                Function<String, Assignor> assignors, AssignorTiming timing, LongSupplier clockMs, Host host) {
        this.vertx = vertx;
        this.workerId = workerId;
        this.leaderLog = leaderLog;
        this.machine = machine;
        this.codec = codec;
        this.assignors = assignors;
        this.timing = timing;
        this.clockMs = clockMs;
        this.host = host;
    }

    /**
     * Loads and replays the group log once, off the event loop, feeding no metrics, so that a later claim replays
     * warm code (a worker's first replay can take a second where a warm one takes tens of milliseconds).
     */
    void warmUp() {
        long started = clockMs.getAsLong();
        leaderLog.load().compose(state -> replay(state, false).map(c -> state.records().size()))
                .onComplete(ar -> LOG.info("Coordinator on {}: warm-up replay {} in {} ms", workerId,
                        ar.succeeded() ? "of " + ar.result() + " records" : "failed (" + ar.cause().getMessage() + ")",
                        clockMs.getAsLong() - started));
    }

    /**
     * One claim attempt of the machine's {@link LeaderAction.Claim}. A hand-over's first attempt first loads and
     * replays the log while the old leader still answers (warming up code this worker may never have run), so that
     * the window between the claim (which fences the old leader) and answering as leader is one claim and one warm
     * replay. Every attempt replays what the claim will expect first, then claims: the new holder is silent (to the
     * others' watch) only for the claim's round trip, and answers right after; a log that changed in between (its
     * revision moved) is replayed again.
     */
    Future<Void> claim(LeaderAction.Claim claim) {
        if (claim.attempt() == 0 && claim.handedOverFrom() != null) {
            long started = clockMs.getAsLong();
            return leaderLog.load().compose(state -> replay(state, false).map(warm -> {
                LOG.info("Coordinator on {}: prepared to take over from {}: replayed {} records in {} ms", workerId,
                        claim.handedOverFrom(), state.records().size(), clockMs.getAsLong() - started);
                return (Void) null;
            })).recover(e -> {
                LOG.warn("Coordinator on {}: preparing the take-over failed, claiming anyway: {}", workerId,
                        e.getMessage());
                return Future.succeededFuture();
            }).compose(v -> attemptClaim(claim));
        }
        return attemptClaim(claim);
    }

    private Future<Void> attemptClaim(LeaderAction.Claim claim) {
        if (!machine.claiming(claim.term())) {
            return Future.succeededFuture();
        }
        long started = clockMs.getAsLong();
        LeaderView view = machine.view();
        return leaderLog.loadForClaim().compose(seen -> replay(seen, true).compose(prepared ->
                leaderLog.claim(workerId, seen, view == null ? 1 : view.size(), claim.minSilenceMs()).compose(claimed -> {
                    long claimedAt = clockMs.getAsLong();
                    Future<GroupCoordinator> fresh = claimed.state().revision() == seen.revision()
                            ? Future.succeededFuture(prepared) : replay(claimed.state(), true);
                    return fresh.compose(c -> (claimed.lastWriteAgoMs() < 0
                            ? leaderLog.restoreOwnerKeys(c) : Future.<Void>succeededFuture()).map(v -> {
                                machine.claimWon(claim.term(), claimed.state().leaderEpoch(), claimed.lastWriteAgoMs(),
                                        claimedAt).ifPresent(lead -> becomeLeader(lead, c, claimed, started, claimedAt));
                                return (Void) null;
                            }));
                })))
                .recover(e -> {
                    if (e instanceof ClaimRefusedException refused) {
                        machine.claimRefused(claim.term(), refused.holder, refused.getMessage());
                        return Future.succeededFuture();
                    }
                    LOG.warn("Claiming the leader epoch failed (attempt {}): {}", claim.attempt() + 1, e.getMessage());
                    LeaderAction.Claim next = machine.claimFailed(claim);
                    vertx.setTimer(next.delayMs(), id -> host.enqueue(() -> attemptClaim(next)));
                    return Future.succeededFuture();
                });
    }

    /**
     * Rebuilds a coordinator from the group log on a worker thread: a long log, or code not yet warm (a worker's
     * first time as leader), must not stall this event loop, which the worker's members may share. The coordinator
     * is pure and used only on this context once the future completed. A warm-up replay ({@code live} false) feeds
     * no metrics.
     */
    private Future<GroupCoordinator> replay(GroupLogState state, boolean live) {
        return vertx.executeBlocking(() -> {
            GroupCoordinator fresh = live ? new GroupCoordinator(timing.wrap(assignors), timing)
                    : new GroupCoordinator(assignors, CoordinatorMetrics.NOOP);
            for (String json : state.records()) {
                fresh.replay(codec.decode(json));
            }
            return fresh;
        }, false);
    }

    /**
     * Serves as leader with the replayed coordinator, its inherited leases shortened as {@code lead} says
     * ({@link LeaderRoleMachine#claimWon}, from {@link LeaderLog.Claimed#lastWriteAgoMs}).
     */
    private void becomeLeader(LeaderAction.Lead lead, GroupCoordinator fresh, LeaderLog.Claimed claimed, long startedMs,
                              long claimedAt) {
        fresh.activate(lead.nowMs(), lead.quietMs());
        leaderLog.lead(claimed);
        long lastWriteAgoMs = claimed.lastWriteAgoMs();
        machine.lead(lead, "took leader epoch " + leaderLog.leaderEpoch() + " at revision "
                + leaderLog.revision() + ", replayed " + leaderLog.records() + " records, groups " + fresh.groupIds()
                + " in " + (lead.nowMs() - startedMs) + " ms (replay " + (lead.nowMs() - claimedAt) + " ms); the last "
                + "write was " + (lastWriteAgoMs < 0 ? "unknown" : lead.quietMs() + " ms ago")
                + ", so inherited leases run at most " + inheritedLeaseMs(fresh, lead.quietMs()) + " more");
        host.led(fresh);
    }

    private static String inheritedLeaseMs(GroupCoordinator c, long quietMs) {
        return c.groupIds().stream().map(g -> c.group(g).orElseThrow().config().sessionTimeoutMs())
                .map(session -> Long.toString(GroupCoordinator.inheritedLeaseMs(session, quietMs)))
                .distinct().collect(Collectors.joining("/", "", " ms"));
    }
}
