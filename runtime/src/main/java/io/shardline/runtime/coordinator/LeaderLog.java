package io.shardline.runtime.coordinator;

import io.shardline.coordinator.AuditEvent;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.record.ShardOwnerRecord;
import io.shardline.runtime.redis.Chunked;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisErrorKind;
import io.shardline.runtime.redis.RedisServerInfo;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.store.GroupLogState;
import io.shardline.runtime.store.RecordCodec;
import io.shardline.runtime.store.RedisAuditLog;
import io.shardline.runtime.store.RedisGroupLog;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator host's side of the group log in Redis: the claim that takes a new leader epoch, and, while the
 * host leads, what it holds (the leader epoch, the store revision it expects next, the Redis identity it fenced,
 * the log's length) and its guarded writes (which also store the decisions' audit events), each followed by the
 * owner keys the written records decide.
 *
 * <p>Context-confined: used only on the coordinator host's context.
 */
final class LeaderLog {

    /**
     * Above this many records, or twice the records the log held after its last compaction (or at the claim) if
     * that is more, the log is replaced by a snapshot of the coordinator's state ({@link #compactionDue}).
     */
    static final int MAX_RECORDS_BEFORE_COMPACTION = 2_000;

    private static final Logger LOG = LoggerFactory.getLogger(LeaderLog.class);

    private final RedisClient redis;
    private final RedisGroupLog log;
    private final RecordCodec codec;
    private final ShardCommands shards;

    private long leaderEpoch;
    private long revision;
    private String fencedRunId;
    private int logRecords;
    /** The records the log held after the last compaction, or at the claim: the next one waits for as many more. */
    private int compactedRecords;

    LeaderLog(RedisClient redis, RedisGroupLog log, RecordCodec codec, ShardCommands shards) {
        this.redis = redis;
        this.log = log;
        this.codec = codec;
        this.shards = shards;
    }

    /**
     * What a won claim found.
     *
     * @param state the stored state to replay, with the leader epoch taken
     * @param runId the Redis identity read just before the claim
     * @param lastWriteAgoMs how long before the claim the previous leader's last write was accepted (Redis clock),
     *     or -1 when unknown: none recorded, or recorded under another Redis identity (a restarted server may have
     *     lost later writes)
     */
    record Claimed(GroupLogState state, String runId, long lastWriteAgoMs) {
    }

    /** The stored state, read atomically (to warm up a replay before a hand-over's claim). */
    Future<GroupLogState> load() {
        return log.load();
    }

    /** Reads the Redis identity, then the stored state a claim will expect ({@link #claim}). */
    Future<GroupLogState> loadForClaim() {
        return redis.refreshServerInfo().compose(info -> log.load());
    }

    /**
     * Takes the next leader epoch by compare-and-set on the one {@code seen} holds (read by {@link #loadForClaim}, so
     * the caller may replay it before claiming), on the terms of
     * {@link RedisGroupLog#claim(String, long, int, long, String)}: fails with {@link ClaimRefusedException} when
     * another worker took an epoch in between, or holds it and still writes ({@code minSilenceMs}, -1 for a
     * hand-over) and sees at least {@code view} workers.
     */
    Future<Claimed> claim(String workerId, GroupLogState seen, int view, long minSilenceMs) {
        RedisServerInfo info = redis.serverInfo();
        return log.claim(workerId, seen.leaderEpoch(), view, minSilenceMs, info.runId()).map(claim -> {
            long lastWriteAgoMs = claim.lastWrite()
                    .filter(w -> !w.runId().isEmpty() && w.runId().equals(info.runId()))
                    .map(RedisGroupLog.LastWrite::agoMs).orElse(-1L);
            if (!claim.won()) {
                throw new ClaimRefusedException(new RedisGroupLog.LeaderStatus(claim.state().leaderEpoch(),
                        claim.state().holder(), claim.lastWrite().map(RedisGroupLog.LastWrite::agoMs).orElse(-1L),
                        claim.holderView()));
            }
            return new Claimed(claim.state(), info.runId(), lastWriteAgoMs);
        });
    }

    /** Who holds the leader epoch and how long ago it last wrote. */
    Future<RedisGroupLog.LeaderStatus> status() {
        return log.status();
    }

    /** Records, under the leader epoch held, how many workers this leader sees (false when it was deposed). */
    Future<Boolean> recordView(int view) {
        return log.recordView(leaderEpoch, view);
    }

    /**
     * Writes the owner key of every owned shard again, as the replayed state has it, when Redis may have lost writes
     * since the last one (its identity changed, or none is recorded): on a Redis Cluster a primary holding shards
     * can restart empty, or fail over to a replica that missed the last writes, while the group log's node keeps
     * the log, so its owner keys would otherwise stay missing (members wait on {@code NOOWNER} for good). Writing
     * the same owner and epoch again is a no-op; a key that already holds a higher epoch is left alone (logged).
     */
    Future<Void> restoreOwnerKeys(GroupCoordinator fresh) {
        List<ShardOwnerRecord> owners = new ArrayList<>();
        for (CoordinatorRecord r : fresh.snapshot()) {
            if (r instanceof ShardOwnerRecord owner) {
                owners.add(owner);
            }
        }
        return Chunked.map(owners, Chunked.POOL_CHUNK, owner -> shards.setOwner(owner.shard(), owner.groupId(),
                        owner.memberId(), owner.ownerEpoch())
                .recover(e -> {
                    if (RedisErrorKind.classify(e) != RedisErrorKind.STALE_EPOCH) {
                        return Future.failedFuture(e);
                    }
                    LOG.warn("Owner key of {} for group {} holds a newer epoch than the group log ({}); "
                            + "left as it is", owner.shard(), owner.groupId(), e.getMessage());
                    return Future.succeededFuture(false);
                })).mapEmpty();
    }

    /** Writes from now on as the holder of {@code claimed}'s leader epoch. */
    void lead(Claimed claimed) {
        leaderEpoch = claimed.state().leaderEpoch();
        revision = claimed.state().revision();
        fencedRunId = claimed.runId();
        logRecords = claimed.state().records().size();
        compactedRecords = logRecords;
    }

    /** The leader epoch taken last (0 before any). */
    long leaderEpoch() {
        return leaderEpoch;
    }

    /** The store revision the next write expects. */
    long revision() {
        return revision;
    }

    /** How many records the stored log holds. */
    int records() {
        return logRecords;
    }

    /** The Redis identity fenced at the claim. */
    String fencedRunId() {
        return fencedRunId;
    }

    /** Whether Redis now has another identity than the one fenced (it restarted, or a cluster's primaries changed). */
    boolean identityChanged(RedisServerInfo info) {
        return !info.runId().equals(fencedRunId);
    }

    /**
     * Appends the records and, in the same guarded script, the audit events of their decisions to each group's
     * audit stream (an append of neither only checks the guards), then writes owner keys. When the
     * log would exceed {@value #MAX_RECORDS_BEFORE_COMPACTION} records it is replaced by a snapshot instead; the
     * snapshot is taken here, synchronously, when every decision taken so far is in {@code records} (the caller
     * cut the batch just now), so it holds exactly the log plus these records.
     *
     * @param snapshot the coordinator's snapshot, asked for only when the log is compacted
     * @param sameTerm whether the caller still leads in the term that issued this write when it returns (a later
     *     term loaded its own revision, which this write must not overwrite)
     */
    Future<Void> write(List<CoordinatorRecord> records, List<AuditEvent> events,
                       Supplier<List<CoordinatorRecord>> snapshot, BooleanSupplier sameTerm) {
        Map<String, List<String>> audit = encodeByGroup(events);
        Future<Long> guarded;
        int logged;
        boolean compacting = compactionDue(logRecords + records.size(), compactedRecords);
        if (compacting) {
            List<CoordinatorRecord> all = snapshot.get();
            int before = logRecords + records.size();
            logged = all.size();
            guarded = log.compact(leaderEpoch, revision, fencedRunId, codec.encodeAll(all), audit).onSuccess(rev ->
                    LOG.info("Compacted group metadata: {} records -> {} (revision {})", before, logged, rev));
        } else {
            logged = logRecords + records.size();
            guarded = log.append(leaderEpoch, revision, fencedRunId, codec.encodeAll(records), audit);
        }
        return guarded.compose(rev -> {
            if (sameTerm.getAsBoolean()) {
                revision = rev;
                logRecords = logged;
                if (compacting) {
                    compactedRecords = logged;
                }
            }
            List<ShardOwnerRecord> owners = new ArrayList<>();
            for (CoordinatorRecord r : records) {
                if (r instanceof ShardOwnerRecord owner) {
                    owners.add(owner);
                }
            }
            // In chunks: a decision that hands out thousands of shards must not put as many writes in the pool's
            // wait queue at once (docs/reliability.md, "Overload").
            return Chunked.map(owners, Chunked.POOL_CHUNK, owner -> shards.setOwner(owner.shard(), owner.groupId(),
                    owner.memberId(), owner.ownerEpoch())).<Void>mapEmpty();
        });
    }

    /**
     * Whether a log that would hold {@code records} is compacted now, when it held {@code compacted} after its last
     * compaction: past {@value #MAX_RECORDS_BEFORE_COMPACTION} records and past twice {@code compacted}. The second
     * bound keeps a large group from compacting at every write: its snapshot alone (a record per shard) may be past
     * the first, and a snapshot taken again after every append, even an empty one, cost the leader and Redis work
     * per shard at every tick and heartbeat (docs/benchmarks.md, "Cost curve"). So each compaction follows at least
     * as many appended records as it writes, and the stored log stays within twice the snapshot.
     */
    static boolean compactionDue(int records, int compacted) {
        return records > MAX_RECORDS_BEFORE_COMPACTION && records > 2L * compacted;
    }

    /** The events per group, in decision order, in their stored form. */
    private static Map<String, List<String>> encodeByGroup(List<AuditEvent> events) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (AuditEvent e : events) {
            out.computeIfAbsent(e.groupId(), g -> new ArrayList<>()).add(RedisAuditLog.encode(e));
        }
        return out;
    }
}
