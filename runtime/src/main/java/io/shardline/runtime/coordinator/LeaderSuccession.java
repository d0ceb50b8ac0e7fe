package io.shardline.runtime.coordinator;

import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.store.RedisGroupLog.LeaderStatus;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Who leads, as one coordinator host last read it from Redis, and when that host is in line to take the leader epoch.
 * Leadership is the leader epoch in Redis, not the cluster view: the view only says who should claim when nobody
 * leads. A host claims
 * <ul>
 *   <li>when it knows nothing, or the epoch is free or its own: if it is the oldest in its view;</li>
 *   <li>when the holder wrote nothing for {@link #silenceMs()} (crashed, frozen, cut off from Redis): if it is the
 *       first worker of its view once the holder is left out, whether or not Hazelcast has noticed;</li>
 *   <li>when the holder still writes: only if the holder is not in its view and its view is larger than the one the
 *       holder recorded (the large side of a split).</li>
 * </ul>
 * So a worker that wakes from a freeze (its view still the one from before) or sees a partial view never deposes the
 * leader the others follow. The claim script checks the liveness and view-size terms again, atomically
 * ({@link io.shardline.runtime.store.RedisGroupLog#claim(String, long, int, long, String)}).
 *
 * <p>Context-confined: used only on the coordinator host's context.
 */
final class LeaderSuccession {

    private final String workerId;
    private final LongSupplier clockMs;
    private final long silenceMs;
    private LeaderStatus watched;
    private long watchedAtMs;
    /** The holder whose epoch the claim in flight takes, or null. */
    private String claimingFrom;
    /** The worker whose epoch this host took last (leadership is never handed back to it), or null. */
    private String tookOverFrom;

    LeaderSuccession(String workerId, LongSupplier clockMs, long silenceMs) {
        this.workerId = workerId;
        this.clockMs = clockMs;
        this.silenceMs = silenceMs;
    }

    /**
     * How long a holder may write nothing before the next worker in line takes over (it writes every tick while it
     * leads): a third of what a member's lease outlives its last answer ({@code session - 2 x heartbeat}), at least
     * three ticks, so that a successor answers well before the members' leases run out.
     */
    static long silenceMs(long tickMs, int heartbeatIntervalMs, int sessionTimeoutMs) {
        return Math.max(3 * tickMs, (sessionTimeoutMs - 2L * heartbeatIntervalMs) / 3);
    }

    /** The silence bound of this host. */
    long silenceMs() {
        return silenceMs;
    }

    /** A read of who holds the epoch (a watch, or a refused claim). */
    void observed(LeaderStatus status) {
        watched = status;
        watchedAtMs = clockMs.getAsLong();
    }

    /** Forgets the last read (this host was deposed: the next watch says by whom). */
    void forget() {
        watched = null;
    }

    /** A claim starts: it takes the epoch from the holder last read ({@code from} for a hand-over). */
    void claiming(Optional<String> from) {
        claimingFrom = from.orElseGet(() -> watched != null && !watched.holder().equals(workerId)
                && !watched.holder().isEmpty() ? watched.holder() : null);
    }

    /** The claim won. */
    void led() {
        tookOverFrom = claimingFrom;
    }

    /** Whether leadership may be handed to {@code oldest}, the view's oldest worker (not the one this host deposed). */
    boolean mayHandTo(String oldest) {
        return !oldest.equals(tookOverFrom);
    }

    /** Whether this host should claim now, given its view (the rules of the class). */
    boolean inLine(LeaderView v) {
        LeaderStatus s = watched;
        if (s == null || s.holder().isEmpty() || s.holder().equals(workerId)) {
            return v.isLeader();
        }
        if (holderSilent()) {
            return v.members().stream().map(ClusterMember::workerId).filter(w -> !w.equals(s.holder())).findFirst()
                    .map(workerId::equals).orElse(false);
        }
        return v.isLeader() && v.size() > s.holderView()
                && v.members().stream().noneMatch(m -> m.workerId().equals(s.holder()));
    }

    /** Why this host claims (for its log line), given that {@link #inLine} said so. */
    String reason(LeaderView v) {
        LeaderStatus s = watched;
        if (s == null || s.holder().isEmpty() || s.holder().equals(workerId)) {
            return "this worker is the oldest cluster member";
        }
        if (holderSilent()) {
            return "worker " + s.holder() + " holds leader epoch " + s.leaderEpoch() + " but wrote nothing for "
                    + silentForMs() + " ms (silence bound " + silenceMs + " ms); this worker is next in line";
        }
        return "worker " + s.holder() + " holds leader epoch " + s.leaderEpoch() + " but sees " + s.holderView()
                + " worker(s) and is not in this worker's view of " + v.size();
    }

    /** Another worker that holds the epoch and still writes, as last read: where members should go. */
    Optional<String> liveHolder() {
        LeaderStatus s = watched;
        return s == null || s.holder().isEmpty() || s.holder().equals(workerId) || holderSilent() ? Optional.empty()
                : Optional.of(s.holder());
    }

    /**
     * How long {@code worker} has written nothing to the group log, as last read (the read's "ago" plus the time since
     * the read): -1 unless it is the holder last read and its last write is known.
     */
    long silenceOf(String worker) {
        LeaderStatus s = watched;
        return s == null || !s.holder().equals(worker) || s.sinceLastWriteMs() < 0 ? -1 : silentForMs();
    }

    private boolean holderSilent() {
        return watched.sinceLastWriteMs() < 0 || silentForMs() >= silenceMs;
    }

    private long silentForMs() {
        return watched.sinceLastWriteMs() + (clockMs.getAsLong() - watchedAtMs);
    }
}
