package io.shardline.runtime.coordinator;

import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.store.RedisGroupLog.LeaderStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader role of one worker's coordinator host as a pure state machine: claim, lead, hand over, deposed,
 * resign ({@link LeaderRole}). It is told what happened (a new cluster view, a read of who holds the leader epoch, a
 * claim won or refused, a write refused or failed, a hand-over answered, this worker stopping), changes the role
 * only through its one gate ({@link #transitionTo}, which refuses edges {@link LeaderRole#previousValidStates()}
 * does not list and logs {@code from -> to}, the leader epoch and why), and returns what the driver must do as
 * {@link LeaderAction} values. It does no I/O and reads time only from the clock it is given, so a test drives it
 * with a manual clock ({@code LeaderRoleMachineTest}).
 *
 * <p>A <em>term</em> numbers the host's attempts to lead: a claim starts one, leaving {@code CLAIMING} or
 * {@code LEADER} ends it; a late answer of an older term (a claim that completed after the host moved on, a write
 * of a discarded coordinator) is recognised by its term and ignored ({@link #claiming}, {@link #leads}). Who is in
 * line to claim is {@link LeaderSuccession}'s rule (docs/protocol.md, section 7); what a new leader inherits of
 * its predecessor's leases is the time since that leader's last accepted write ({@link #claimWon}).
 *
 * <p>Context-confined: used only on the coordinator host's context.
 */
final class LeaderRoleMachine {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderRoleMachine.class);

    /** The longest wait between two failed claim attempts. */
    static final long MAX_CLAIM_BACKOFF_MS = 2_000;

    private final String workerId;
    private final LongSupplier clockMs;
    /** Who leads as last read from Redis, and when this host is in line to claim. */
    private final LeaderSuccession succession;

    private LeaderRole role = LeaderRole.FOLLOWER;
    private int term;
    /** The leader epoch taken last (0 before any). */
    private long leaderEpoch;
    private LeaderView view;
    /** Whether a hand-over to the view's oldest worker is in flight. */
    private boolean yielding;
    private long leaderSinceMs;
    private boolean served;

    /**
     * @param clockMs monotonic milliseconds (the host's injected wall clock)
     * @param silenceMs how long a holder may write nothing before the next worker in line claims
     *     ({@link LeaderSuccession#silenceMs})
     */
    LeaderRoleMachine(String workerId, LongSupplier clockMs, long silenceMs) {
        this.workerId = workerId;
        this.clockMs = clockMs;
        this.succession = new LeaderSuccession(workerId, clockMs, silenceMs);
    }

    /** The role now. */
    LeaderRole role() {
        return role;
    }

    /** The current term. */
    int term() {
        return term;
    }

    /** The leader epoch taken last (0 before any; kept after leading ended, for log lines). */
    long leaderEpoch() {
        return leaderEpoch;
    }

    /** The last cluster view, or null before the first. */
    LeaderView view() {
        return view;
    }

    /** Whether a claim of {@code claimTerm} is still the one this host makes. */
    boolean claiming(int claimTerm) {
        return claimTerm == term && role == LeaderRole.CLAIMING;
    }

    /** Whether the host still leads in {@code leaderTerm}. */
    boolean leads(int leaderTerm) {
        return leaderTerm == term && role == LeaderRole.LEADER;
    }

    /** Whether to read who holds the leader epoch now: not while leading or claiming, nor once stopping. */
    boolean watches(boolean stopping) {
        return !stopping && role != LeaderRole.LEADER && role != LeaderRole.CLAIMING;
    }

    /** Another worker that holds the epoch and still writes, as last read: where members should go. */
    Optional<String> liveHolder() {
        return succession.liveHolder();
    }

    /** How long {@code worker} has written nothing, as this host last read who leads, or -1 when it cannot tell. */
    long silenceOf(String worker) {
        return succession.silenceOf(worker);
    }

    /**
     * A new cluster view. A leader records how many workers it sees and hands over to the view's oldest worker
     * unless that is the worker it took the epoch from; a follower or deposed host claims when it is in line.
     */
    List<LeaderAction> viewChanged(LeaderView next, boolean stopping) {
        view = next;
        List<LeaderAction> actions = new ArrayList<>();
        if (role == LeaderRole.LEADER) {
            actions.add(new LeaderAction.RecordView(leaderEpoch, next.size()));
            String oldest = next.leader().workerId();
            if (!next.isLeader() && succession.mayHandTo(oldest) && !yielding) {
                yielding = true;
                LOG.info("Coordinator on {}: worker {} is the oldest cluster member now; handing leadership (epoch {}) "
                        + "over to it", workerId, oldest, leaderEpoch);
                actions.add(new LeaderAction.HandOver(oldest, leaderEpoch));
            }
        } else if ((role == LeaderRole.FOLLOWER || role == LeaderRole.DEPOSED) && succession.inLine(next)) {
            claim(succession.reason(next), stopping).ifPresent(actions::add);
        }
        return actions;
    }

    /** A read of who holds the leader epoch: claims when this host is in line. */
    Optional<LeaderAction> watched(LeaderStatus status, boolean stopping) {
        succession.observed(status);
        if ((role == LeaderRole.FOLLOWER || role == LeaderRole.DEPOSED) && view != null && !stopping
                && succession.inLine(view)) {
            return claim(succession.reason(view), stopping);
        }
        return Optional.empty();
    }

    /** A stopping leader asks this host to claim at once, whatever the holder's liveness ({@link LeaderHandOver}). */
    LeaderAction.Claim handedOver(String from) {
        transitionTo(LeaderRole.CLAIMING, "worker " + from + " hands leadership over");
        term++;
        succession.claiming(Optional.of(from));
        return new LeaderAction.Claim(term, 0, -1, 0, from);
    }

    /** A claim attempt failed on the way (Redis unreachable, a replay failed): the next attempt, backed off. */
    LeaderAction.Claim claimFailed(LeaderAction.Claim failed) {
        long delayMs = Math.min(MAX_CLAIM_BACKOFF_MS, 100L << Math.min(failed.attempt(), 4));
        return new LeaderAction.Claim(failed.term(), failed.attempt() + 1, failed.minSilenceMs(), delayMs,
                failed.handedOverFrom());
    }

    /** The claim script refused: {@code holder} holds the epoch and still writes; follow it. */
    void claimRefused(int claimTerm, LeaderStatus holder, String why) {
        if (!claiming(claimTerm)) {
            return;
        }
        succession.observed(holder);
        term++;
        transitionTo(LeaderRole.FOLLOWER, "claim refused: " + why + "; following it");
    }

    /**
     * The claim took {@code epoch}; {@code lastWriteAgoMs} is how long before the claim ({@code claimedAtMs}) the
     * predecessor's last write was accepted, -1 when unknown. Returns how to lead, or nothing when this host stopped
     * claiming meanwhile. Inherited leases keep only what can remain of them: the time since that write (0 when
     * unknown: a whole session from now), so the members of a killed leader's worker expire about one session timeout
     * after their last answer, not after the claim.
     */
    Optional<LeaderAction.Lead> claimWon(int claimTerm, long epoch, long lastWriteAgoMs, long claimedAtMs) {
        if (!claiming(claimTerm)) {
            LOG.info("Coordinator on {}: took leader epoch {} but stopped claiming meanwhile (role {}); not leading",
                    workerId, epoch, role);
            return Optional.empty();
        }
        long now = clockMs.getAsLong();
        long quietMs = lastWriteAgoMs < 0 ? 0 : lastWriteAgoMs + (now - claimedAtMs);
        return Optional.of(new LeaderAction.Lead(claimTerm, epoch, now, quietMs));
    }

    /** The driver activated the coordinator of {@code lead}: this host leads ({@code why} for the log line). */
    void lead(LeaderAction.Lead lead, String why) {
        succession.led();
        leaderEpoch = lead.leaderEpoch();
        leaderSinceMs = lead.nowMs();
        served = false;
        transitionTo(LeaderRole.LEADER, why);
    }

    /** The milliseconds since this host took the epoch, the first time it answers as leader; empty afterwards. */
    OptionalLong firstAnswer() {
        if (served) {
            return OptionalLong.empty();
        }
        served = true;
        return OptionalLong.of(clockMs.getAsLong() - leaderSinceMs);
    }

    /**
     * A guarded write of the leader failed. Refused for a newer leader epoch: another worker took it, follow it (the
     * watch claims again only when this worker is in line). Otherwise (Redis failed, or restarted): the epoch is
     * still this worker's as far as it knows; discard the coordinator and claim again to rebuild it from Redis.
     */
    List<LeaderAction> writeFailed(boolean staleLeaderEpoch, String why, boolean stopping) {
        List<LeaderAction> actions = new ArrayList<>();
        if (staleLeaderEpoch) {
            succession.forget();
            actions.add(discard(LeaderRole.DEPOSED, why));
            return actions;
        }
        actions.add(discard(LeaderRole.FOLLOWER, "write failed: " + why));
        claim("rebuilding from Redis after a failed write", stopping).ifPresent(actions::add);
        return actions;
    }

    /** The hand-over to {@code successor} ({@link LeaderAction.HandOver}) was answered, or failed with {@code error}. */
    Optional<LeaderAction> handOverEnded(String successor, Optional<Throwable> error) {
        yielding = false;
        if (role != LeaderRole.LEADER && role != LeaderRole.DEPOSED) {
            return Optional.empty();
        }
        if (error.isEmpty()) {
            return Optional.of(discard(LeaderRole.FOLLOWER, "handed leadership over to " + successor
                    + ", the oldest cluster member"));
        }
        if (role == LeaderRole.LEADER && view != null && successor.equals(view.leader().workerId())) {
            return Optional.of(discard(LeaderRole.FOLLOWER, "worker " + successor + " is the oldest cluster member now "
                    + "(it did not take a hand-over: " + error.get().getMessage() + ")"));
        }
        return Optional.empty();
    }

    /** This worker stops ({@link LeaderHandOver}): discard the coordinator for good. */
    LeaderAction.StepDown resign(String why) {
        return discard(LeaderRole.RESIGNED, why);
    }

    private Optional<LeaderAction> claim(String why, boolean stopping) {
        if (stopping) {
            transitionTo(LeaderRole.RESIGNED, "not claiming (" + why + "): this worker is stopping");
            return Optional.empty();
        }
        transitionTo(LeaderRole.CLAIMING, why);
        term++;
        succession.claiming(Optional.empty());
        return Optional.of(new LeaderAction.Claim(term, 0, succession.silenceMs(), 0, null));
    }

    private LeaderAction.StepDown discard(LeaderRole next, String why) {
        boolean wasLeader = role == LeaderRole.LEADER;
        term++;
        transitionTo(next, why);
        return new LeaderAction.StepDown(wasLeader);
    }

    /** The one gate: refuses an edge {@code next} may not be entered from, logs every change with its reason. */
    private void transitionTo(LeaderRole next, String why) {
        if (!next.previousValidStates().contains(role)) {
            throw new IllegalStateException("Coordinator on " + workerId + ": illegal transition " + role + " -> "
                    + next + " (leader epoch " + leaderEpoch + "): " + why);
        }
        if (next != role) {
            LOG.info("Coordinator on {}: {} -> {} (leader epoch {}): {}", workerId, role, next, leaderEpoch, why);
        }
        role = next;
    }
}
