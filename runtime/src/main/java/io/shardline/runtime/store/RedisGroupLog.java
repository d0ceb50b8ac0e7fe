package io.shardline.runtime.store;

import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisErrorKind;
import io.vertx.core.Future;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The group metadata log in Redis, every operation one Lua script so that its guards and its write
 * are atomic:
 *
 * <ul>
 *   <li>{@link #claim} takes a new leader epoch ({@code INCR}), optionally only if the epoch is still
 *       the one the claimant saw (compare-and-set), and returns the state to replay;</li>
 *   <li>{@link #append} and {@link #compact} write only if the writer's leader epoch is the current one
 *       and its expected revision is the current revision, then increment the revision and record the
 *       server's {@code TIME} as the last write. A deposed or partitioned leader's write is refused with
 *       {@link StoreFencedException}. A claim returns how long ago the last write was, so a new leader knows
 *       how much of the leases its predecessor granted (answers follow accepted writes) can remain. Both may
 *       carry the audit events of the decisions they commit, which the same script adds to the groups' capped
 *       audit streams ({@link RedisAuditLog}), so a refused write stores no event either.</li>
 * </ul>
 *
 * <p>Records are opaque strings (JSON) here. Thread-safe.
 */
public final class RedisGroupLog {

    private static final String GUARD = """
            local function guard(epoch, rev)
              local cur_epoch = tonumber(redis.call('GET', KEYS[1]) or '0')
              local cur_rev = tonumber(redis.call('GET', KEYS[3]) or '0')
              if cur_epoch ~= tonumber(epoch) then
                return redis.error_reply('STALE_LEADER_EPOCH ' .. cur_epoch .. ' ' .. cur_rev)
              end
              if cur_rev ~= tonumber(rev) then
                return redis.error_reply('REVISION_MISMATCH ' .. cur_epoch .. ' ' .. cur_rev)
              end
              return nil
            end
            local function stamp(run_id)
              local t = redis.call('TIME')
              redis.call('SET', KEYS[5], run_id .. ' ' .. t[1] .. ' ' .. t[2])
            end
            local function push(first, last)
              local i = first
              while i <= last do
                local upto = math.min(i + 999, last)
                redis.call('RPUSH', KEYS[4], unpack(ARGV, i, upto))
                i = upto + 1
              end
            end
            local function audit(first)
              local i = first
              for k = 6, #KEYS do
                local n = tonumber(ARGV[i])
                local t = redis.call('TYPE', KEYS[k])['ok']
                if t == 'stream' or t == 'none' then
                  for j = i + 1, i + n do
                    redis.call('XADD', KEYS[k], 'MAXLEN', '~', ARGV[5], '*', 'event', ARGV[j])
                  end
                else
                  redis.log(redis.LOG_WARNING, 'shardline: ' .. KEYS[k] .. ' holds a ' .. t
                    .. ', not a stream; ' .. n .. ' audit event(s) not stored')
                end
                i = i + n + 1
              end
            end
            """;

    /**
     * KEYS: epoch holder revision log lastWrite audit...; ARGV: writerEpoch expectedRevision runId recordCount
     * auditCap record... then, for each audit key in order, its event count and events.
     */
    private static final LuaScript APPEND = LuaScript.of(GUARD + """
            local err = guard(ARGV[1], ARGV[2])
            if err then return err end
            stamp(ARGV[3])
            local records = tonumber(ARGV[4])
            audit(6 + records)
            if records == 0 then return tonumber(ARGV[2]) end
            push(6, 5 + records)
            return redis.call('INCR', KEYS[3])
            """);

    /** KEYS and ARGV as {@link #APPEND}'s; the records replace the log. */
    private static final LuaScript COMPACT = LuaScript.of(GUARD + """
            local err = guard(ARGV[1], ARGV[2])
            if err then return err end
            stamp(ARGV[3])
            local records = tonumber(ARGV[4])
            redis.call('DEL', KEYS[4])
            push(6, 5 + records)
            audit(6 + records)
            return redis.call('INCR', KEYS[3])
            """);

    /** Reads how long ago the last guarded write was accepted (Redis clock): {@code run_id, ms} or {@code '', -1}. */
    private static final String SINCE_LAST_WRITE = """
            local function since_last_write()
              local last = redis.call('GET', KEYS[5])
              if not last then return '', -1 end
              local run_id, s, us = string.match(last, '^(%S*) (%d+) (%d+)$')
              if not run_id then return '', -1 end
              local t = redis.call('TIME')
              local ms = (tonumber(t[1]) - tonumber(s)) * 1000 + math.floor((tonumber(t[2]) - tonumber(us)) / 1000)
              return run_id, ms
            end
            """;

    /**
     * KEYS: epoch holder revision log lastWrite view; ARGV: claimant expectedEpoch('' = any) claimantView
     * minSilenceMs(-1 = unconditional) runId -> {won, epoch, revision, holder, lastWriteRunId, msSinceLastWrite (-1:
     * none), holderView, record...}. A won claim counts as a write of the new holder (its silence starts now). A claim is refused (won 0) when the epoch moved past {@code expectedEpoch}, or when
     * another worker holds it, wrote less than {@code minSilenceMs} ago and sees at least as many workers as the
     * claimant (a live leader that the rest of the cluster follows is never deposed by a worker with a partial view).
     */
    private static final LuaScript CLAIM = LuaScript.of(SINCE_LAST_WRITE + """
            local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
            local holder = redis.call('GET', KEYS[2]) or ''
            local holder_view = tonumber(redis.call('GET', KEYS[6]) or '0')
            local run_id, since = since_last_write()
            local min_silence = tonumber(ARGV[4])
            local allowed = min_silence < 0 or holder == '' or holder == ARGV[1] or since < 0 or since >= min_silence
              or tonumber(ARGV[3]) > holder_view
            local won = 0
            local epoch = cur
            if allowed and (ARGV[2] == '' or tonumber(ARGV[2]) == cur) then
              epoch = redis.call('INCR', KEYS[1])
              redis.call('SET', KEYS[2], ARGV[1])
              redis.call('SET', KEYS[6], ARGV[3])
              local t = redis.call('TIME')
              redis.call('SET', KEYS[5], ARGV[5] .. ' ' .. t[1] .. ' ' .. t[2])
              won = 1
              holder_view = tonumber(ARGV[3])
            end
            local out = {won, epoch, tonumber(redis.call('GET', KEYS[3]) or '0'), redis.call('GET', KEYS[2]) or '',
                         run_id, since, holder_view}
            local log = redis.call('LRANGE', KEYS[4], 0, -1)
            for i = 1, #log do out[#out + 1] = log[i] end
            return out
            """);

    /** KEYS: epoch holder revision log lastWrite view -> {epoch, holder, msSinceLastWrite (-1: none), holderView}. */
    private static final LuaScript STATUS = LuaScript.of(SINCE_LAST_WRITE + """
            local run_id, since = since_last_write()
            return {tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('GET', KEYS[2]) or '', since,
                    tonumber(redis.call('GET', KEYS[6]) or '0')}
            """);

    /** KEYS: epoch holder revision log lastWrite view; ARGV: writerEpoch view -> 1 if recorded, 0 if deposed. */
    private static final LuaScript RECORD_VIEW = LuaScript.of("""
            if tonumber(redis.call('GET', KEYS[1]) or '0') ~= tonumber(ARGV[1]) then return 0 end
            redis.call('SET', KEYS[6], ARGV[2])
            return 1
            """);

    /** KEYS: epoch holder revision log -> {epoch, revision, holder, record...}. */
    private static final LuaScript LOAD = LuaScript.of("""
            local out = {tonumber(redis.call('GET', KEYS[1]) or '0'), tonumber(redis.call('GET', KEYS[3]) or '0'),
                         redis.call('GET', KEYS[2]) or ''}
            local log = redis.call('LRANGE', KEYS[4], 0, -1)
            for i = 1, #log do out[#out + 1] = log[i] end
            return out
            """);

    private final RedisClient redis;
    private final MetadataKeys keys;

    /** Creates the log for one cluster's keys. */
    public RedisGroupLog(RedisClient redis, MetadataKeys keys) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /**
     * The result of a claim.
     *
     * @param won whether the claimant took the leader epoch
     * @param state the stored state to replay
     * @param lastWrite the last accepted guarded write, if one is recorded
     * @param holderView how many workers the holder of the epoch saw (as it last recorded; 0 when unknown)
     */
    public record Claim(boolean won, GroupLogState state, Optional<LastWrite> lastWrite, int holderView) {
    }

    /**
     * When the last accepted guarded write happened, as the claim read it.
     *
     * @param runId the Redis run id the writer had checked (empty when the writer did not know it)
     * @param agoMs how long before the claim it was accepted, by the Redis server's clock (never negative)
     */
    public record LastWrite(String runId, long agoMs) {
    }

    /**
     * Who holds the leader epoch and whether it still writes, as one read saw it.
     *
     * @param leaderEpoch the current leader epoch (0 before any claim)
     * @param holder the worker that took it ({@code ""} when none)
     * @param sinceLastWriteMs how long ago the last guarded write was accepted (Redis clock), -1 when none is recorded
     * @param holderView how many workers the holder saw when it last recorded its cluster view (0 when unknown)
     */
    public record LeaderStatus(long leaderEpoch, String holder, long sinceLastWriteMs, int holderView) {
    }

    /**
     * Takes a new leader epoch unconditionally of the holder's liveness. With {@code expectedEpoch} &gt;= 0 only if
     * the current epoch is still {@code expectedEpoch} (compare-and-set: two claimants that saw the same epoch cannot
     * both win); with -1 whatever the epoch.
     */
    public Future<Claim> claim(String holder, long expectedEpoch) {
        return claim(holder, expectedEpoch, 0, -1, "");
    }

    /**
     * Takes a new leader epoch as {@link #claim(String, long)} does, but only if the epoch is free, held by
     * {@code holder} itself, held by a worker whose last write is at least {@code minSilenceMs} old (it stopped
     * writing: crashed, frozen or cut off from Redis), or held by a worker that saw fewer workers than
     * {@code claimantView} (it is on the small side of a split). Otherwise the claim is refused ({@link Claim#won}
     * false) and says who holds the epoch. A won claim records {@code claimantView} as the holder's view.
     *
     * A won claim is recorded as the new holder's first write (so the next claimant measures its silence from
     * the claim, not from its predecessor's last write); the returned {@link Claim#lastWrite} is the one before it.
     *
     * @param minSilenceMs -1 for an unconditional claim (a graceful hand-over)
     * @param runId the Redis run id the claimant read just before (recorded with the claim as its write)
     */
    public Future<Claim> claim(String holder, long expectedEpoch, int claimantView, long minSilenceMs, String runId) {
        String expected = expectedEpoch < 0 ? "" : Long.toString(expectedEpoch);
        return CLAIM.call(redis, leaderKeys(), List.of(holder, expected, Integer.toString(claimantView),
                Long.toString(minSilenceMs), runId)).map(r -> {
                    boolean won = r.get(0).toLong() == 1;
                    long ago = r.get(5).toLong();
                    Optional<LastWrite> lastWrite = ago < 0 ? Optional.empty()
                            : Optional.of(new LastWrite(r.get(4).toString(), ago));
                    return new Claim(won, new GroupLogState(r.get(1).toLong(), r.get(2).toLong(), r.get(3).toString(),
                            strings(r, 7)), lastWrite, r.get(6).toInteger());
                });
    }

    /** Who holds the leader epoch and how long ago it last wrote (one small read, no log). */
    public Future<LeaderStatus> status() {
        return STATUS.call(redis, leaderKeys(), List.of()).map(r -> new LeaderStatus(r.get(0).toLong(), r.get(1).toString(),
                r.get(2).toLong(), r.get(3).toInteger()));
    }

    /**
     * Records how many workers the holder of {@code leaderEpoch} sees now (a claimant that sees more may depose it);
     * false when that epoch is no longer the current one.
     */
    public Future<Boolean> recordView(long leaderEpoch, int view) {
        return RECORD_VIEW.call(redis, leaderKeys(), List.of(Long.toString(leaderEpoch), Integer.toString(view)))
                .map(r -> r.toLong() == 1);
    }

    private List<String> leaderKeys() {
        List<String> k = new ArrayList<>(keys.scriptKeys());
        k.add(keys.leaderView());
        return k;
    }

    /** The stored state, read atomically. */
    public Future<GroupLogState> load() {
        return LOAD.call(redis, keys.scriptKeys(), List.of()).map(r ->
                new GroupLogState(r.get(0).toLong(), r.get(1).toLong(), r.get(2).toString(), strings(r, 3)));
    }

    /**
     * Appends records under the guards; an accepted append also records the server's time and {@code runId}
     * as the last write.
     *
     * @param runId the Redis run id the writer checked before writing ({@code ""} when it does not know it:
     *     a later claimant then inherits nothing of the leases the writer granted)
     * @return the new revision ({@code expectedRevision + 1}; unchanged for no records, which still checks the guards)
     */
    public Future<Long> append(long leaderEpoch, long expectedRevision, String runId, List<String> records) {
        return append(leaderEpoch, expectedRevision, runId, records, Map.of());
    }

    /**
     * {@link #append(long, long, String, List)}, and in the same script (so only if the guards pass) the audit
     * events of the decisions these records commit, added to each group's audit stream ({@link RedisAuditLog}).
     * Events without records are written too (the revision stays). An audit key that holds something other than a
     * stream is left alone and its events dropped (a warning in the Redis server's log): the audit trail must never
     * stop the coordinator from committing.
     *
     * @param audit per group id, its events in decision order, each encoded by {@link RedisAuditLog#encode}
     */
    public Future<Long> append(long leaderEpoch, long expectedRevision, String runId, List<String> records,
                               Map<String, List<String>> audit) {
        return write(APPEND, leaderEpoch, expectedRevision, runId, records, audit);
    }

    /**
     * Replaces the log by {@code snapshot} under the guards, so the log does not grow without bound; recorded as
     * the last write like {@link #append}.
     *
     * @return the new revision
     */
    public Future<Long> compact(long leaderEpoch, long expectedRevision, String runId, List<String> snapshot) {
        return compact(leaderEpoch, expectedRevision, runId, snapshot, Map.of());
    }

    /**
     * {@link #compact(long, long, String, List)}, writing in the same script the audit events of the decisions
     * the snapshot includes since the last write (as {@link #append(long, long, String, List, Map)}).
     *
     * @return the new revision
     */
    public Future<Long> compact(long leaderEpoch, long expectedRevision, String runId, List<String> snapshot,
                                Map<String, List<String>> audit) {
        return write(COMPACT, leaderEpoch, expectedRevision, runId, snapshot, audit);
    }

    /** The keys used. */
    public MetadataKeys keys() {
        return keys;
    }

    private Future<Long> write(LuaScript script, long leaderEpoch, long expectedRevision, String runId,
                               List<String> records, Map<String, List<String>> audit) {
        if (runId.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("run id must not contain whitespace: '" + runId + "'");
        }
        List<String> scriptKeys = new ArrayList<>(keys.scriptKeys());
        List<String> args = new ArrayList<>(records.size() + 5);
        args.add(Long.toString(leaderEpoch));
        args.add(Long.toString(expectedRevision));
        args.add(runId);
        args.add(Integer.toString(records.size()));
        args.add(Integer.toString(RedisAuditLog.MAX_EVENTS_PER_GROUP));
        args.addAll(records);
        audit.forEach((groupId, events) -> {
            if (!events.isEmpty()) {
                scriptKeys.add(keys.audit(groupId));
                args.add(Integer.toString(events.size()));
                args.addAll(events);
            }
        });
        return script.call(redis, scriptKeys, args)
                .map(Response::toLong)
                .recover(e -> Future.failedFuture(translate(e, leaderEpoch, expectedRevision)));
    }

    private static Throwable translate(Throwable e, long leaderEpoch, long expectedRevision) {
        StoreFencedException.Kind kind = switch (RedisErrorKind.classify(e)) {
            case STALE_LEADER_EPOCH -> StoreFencedException.Kind.STALE_LEADER_EPOCH;
            case REVISION_MISMATCH -> StoreFencedException.Kind.REVISION_MISMATCH;
            default -> null;
        };
        if (kind == null) {
            return e;
        }
        String[] parts = e.getMessage().split(" ");
        return new StoreFencedException(kind, leaderEpoch, expectedRevision, Long.parseLong(parts[1].trim()),
                Long.parseLong(parts[2].trim()));
    }

    private static List<String> strings(Response r, int from) {
        List<String> out = new ArrayList<>(Math.max(0, r.size() - from));
        for (int i = from; i < r.size(); i++) {
            out.add(r.get(i).toString());
        }
        return out;
    }
}
