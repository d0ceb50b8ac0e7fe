package io.shardline.coordinator.testing;

import io.shardline.coordinator.AuditEvent;
import io.shardline.coordinator.record.CoordinatorRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The group log's persistence contract as the runtime's {@code io.shardline.runtime.store.RedisGroupLog} keeps it in
 * Redis, one Lua script per call, modelled in memory for the coordinator's tests and its simulation
 * (docs/protocol.md, section 8, "One contract"). Each method does what the script of the same name does,
 * atomically:
 *
 * <ul>
 *   <li>{@link #claim} takes the next leader epoch ({@code INCR}) if the epoch is still the one the claimant saw
 *       (compare-and-set; -1: any) and the holder may be deposed: the epoch is free or the claimant's, the claim is
 *       unconditional ({@code minSilenceMs} -1, a hand-over), the holder wrote nothing for {@code minSilenceMs}, or
 *       it saw fewer workers than the claimant. A won claim counts as the new holder's first write; the claim
 *       returns the write before it, so the new leader knows how much of its predecessor's leases can remain;</li>
 *   <li>{@link #append} and {@link #compact} write only under the writer's leader epoch and expected revision (else
 *       {@link Refused}, nothing written), record the server's time and the writer's Redis identity as the last write
 *       (also an empty append, which only re-confirms the epoch), add the decisions' audit events to each group's
 *       capped stream, and advance the revision (not for an empty append);</li>
 *   <li>{@link #status} and {@link #recordView} are the followers' watch and the leader's cluster-view record.</li>
 * </ul>
 *
 * <p>Time is the server's clock, passed in (a simulation may let it drift against its own). Not thread-safe.
 */
public final class GroupLogModel {

    /** What the log holds, as a load or a claim reads it. */
    public record State(long leaderEpoch, long revision, String holder, List<CoordinatorRecord> records) {

        /** Copies. */
        public State {
            records = List.copyOf(records);
        }
    }

    /** The last accepted write: the Redis identity the writer checked, and how long ago (server clock). */
    public record LastWrite(String runId, long agoMs) {
    }

    /** A claim's outcome: whether it won, the state to replay, the write before it, the holder's recorded view. */
    public record Claim(boolean won, State state, Optional<LastWrite> lastWrite, int holderView) {
    }

    /** Who holds the leader epoch, how long ago the last write was (-1: none), and the view it recorded. */
    public record Status(long leaderEpoch, String holder, long sinceLastWriteMs, int holderView) {
    }

    /** A guarded write was refused; nothing was written (the script's error reply). */
    public static final class Refused extends RuntimeException {

        private static final long serialVersionUID = 1L;

        /** Which guard failed, as the script's error code. */
        public enum Kind { STALE_LEADER_EPOCH, REVISION_MISMATCH }

        private final Kind kind;

        Refused(Kind kind, long epoch, long revision) {
            super(kind + " " + epoch + " " + revision);
            this.kind = kind;
        }

        /** Which guard failed. */
        public Kind kind() {
            return kind;
        }
    }

    private final LongSupplier serverClockMs;
    private final int auditCap;
    private long leaderEpoch;
    private long revision;
    private String holder = "";
    private int holderView;
    private final List<CoordinatorRecord> log = new ArrayList<>();
    private String lastWriteRunId;
    private long lastWriteAtMs = Long.MIN_VALUE;
    private final Map<String, List<AuditEvent>> audit = new HashMap<>();
    private long refusedWrites;

    /**
     * @param serverClockMs the Redis server's clock ({@code TIME})
     * @param auditCap how many events each group's audit stream keeps
     */
    public GroupLogModel(LongSupplier serverClockMs, int auditCap) {
        this.serverClockMs = serverClockMs;
        this.auditCap = auditCap;
    }

    /** The claim script. */
    public Claim claim(String claimant, long expectedEpoch, int claimantView, long minSilenceMs, String runId) {
        Optional<LastWrite> before = lastWrite();
        long since = before.map(LastWrite::agoMs).orElse(-1L);
        boolean allowed = minSilenceMs < 0 || holder.isEmpty() || holder.equals(claimant) || since < 0
                || since >= minSilenceMs || claimantView > holderView;
        boolean won = allowed && (expectedEpoch < 0 || expectedEpoch == leaderEpoch);
        if (won) {
            leaderEpoch++;
            holder = claimant;
            holderView = claimantView;
            stamp(runId);
        }
        return new Claim(won, load(), before, holderView);
    }

    /** The status script: the followers' watch. */
    public Status status() {
        return new Status(leaderEpoch, holder, lastWrite().map(LastWrite::agoMs).orElse(-1L), holderView);
    }

    /** The record-view script: false (nothing recorded) when {@code writerEpoch} is not the current epoch. */
    public boolean recordView(long writerEpoch, int view) {
        if (writerEpoch != leaderEpoch) {
            return false;
        }
        holderView = view;
        return true;
    }

    /** The load script. */
    public State load() {
        return new State(leaderEpoch, revision, holder, log);
    }

    /** The append script: the new revision (unchanged for no records). */
    public long append(long writerEpoch, long expectedRevision, String runId, List<CoordinatorRecord> records,
                       List<AuditEvent> events) {
        guard(writerEpoch, expectedRevision);
        stamp(runId);
        addAudit(events);
        if (records.isEmpty()) {
            return revision;
        }
        log.addAll(records);
        return ++revision;
    }

    /** The compact script: the log replaced by {@code snapshot}; the new revision. */
    public long compact(long writerEpoch, long expectedRevision, String runId, List<CoordinatorRecord> snapshot,
                        List<AuditEvent> events) {
        guard(writerEpoch, expectedRevision);
        stamp(runId);
        log.clear();
        log.addAll(snapshot);
        addAudit(events);
        return ++revision;
    }

    /** The audit stream of {@code groupId}, oldest first. */
    public List<AuditEvent> audit(String groupId) {
        return List.copyOf(audit.getOrDefault(groupId, List.of()));
    }

    /** How many records the log holds. */
    public int size() {
        return log.size();
    }

    /** How many guarded writes were refused so far. */
    public long refusedWrites() {
        return refusedWrites;
    }

    private void guard(long writerEpoch, long expectedRevision) {
        if (writerEpoch != leaderEpoch) {
            refusedWrites++;
            throw new Refused(Refused.Kind.STALE_LEADER_EPOCH, leaderEpoch, revision);
        }
        if (expectedRevision != revision) {
            refusedWrites++;
            throw new Refused(Refused.Kind.REVISION_MISMATCH, leaderEpoch, revision);
        }
    }

    private void stamp(String runId) {
        lastWriteRunId = runId;
        lastWriteAtMs = serverClockMs.getAsLong();
    }

    private Optional<LastWrite> lastWrite() {
        return lastWriteAtMs == Long.MIN_VALUE ? Optional.empty()
                : Optional.of(new LastWrite(lastWriteRunId, Math.max(0, serverClockMs.getAsLong() - lastWriteAtMs)));
    }

    private void addAudit(List<AuditEvent> events) {
        for (AuditEvent e : events) {
            List<AuditEvent> stream = audit.computeIfAbsent(e.groupId(), g -> new ArrayList<>());
            stream.add(e);
            if (stream.size() > auditCap) {
                stream.remove(0);
            }
        }
    }
}
