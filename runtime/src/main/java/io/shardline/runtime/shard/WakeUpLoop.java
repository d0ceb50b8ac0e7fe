package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardId;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of the member's blocking connections ({@link WakeUps}): a read-only {@code XREAD COUNT 1 BLOCK t STREAMS
 * <shards> <ids>} that says when an idle shard got new entries (fenced reads cannot block inside a script on
 * Redis 7.0). Waking has no side effect in Redis, so a stale member waking up is harmless. The read names the idle
 * shards (from their wake-up ids) and the shards it woke that are still reading (from the entry that woke them), so
 * a shard it woke is watched again the moment it goes idle. A shard that goes idle unwatched (its first idle after
 * an acquire, a resume, a retry, or a burst) while the read blocks is added by interrupting the read with
 * {@code CLIENT UNBLOCK} and issuing it again with the new set. On a connection failure every idle shard is woken
 * (its fenced read then backs off on errors by itself) and the connection is opened again.
 *
 * <p>With a {@link ReadBehind} (standalone Redis), the blocking read goes out with the fenced read of the idle shards
 * the member lets it claim right behind it on the same connection: those shards' records come back with the wake-up
 * itself, one round trip sooner; the outcome of each claimed shard goes to the member ({@link ReadBehind.Port#landed}),
 * and a claimed shard that stops waiting meanwhile (paused, released, its linger over) interrupts the read so that its
 * outcome lands soon.
 *
 * <p>Redis Cluster: a multi-key {@code XREAD} must name keys of one hash slot only, and every shard has a
 * slot of its own (its hash tag), so one blocking read cannot cover the member's shards. In cluster mode the
 * loop polls instead: every {@code pollMs} (at most {@value #MAX_CLUSTER_POLL_MS} ms) it sends one non-blocking
 * read-only {@code XREAD COUNT 1 STREAMS ...} per group of idle shards that share a slot ({@link HashSlot}), on
 * pooled connections that the cluster client routes to the slot's node, and wakes the shards that have new
 * entries. An idle shard is so noticed within one poll interval, at the cost of one small read per slot group
 * and interval.
 *
 * <p>Used on the member's context only.
 */
final class WakeUpLoop {

    private static final Logger LOG = LoggerFactory.getLogger(WakeUpLoop.class);
    /**
     * How long a shard gone idle may wait for the blocking read to return by itself before it is interrupted: not at
     * all, past the end of the current task ({@link #interruptSoon}).
     */
    static final long UNBLOCK_DELAY_MS = 0;
    /** The longest poll interval in cluster mode. */
    static final long MAX_CLUSTER_POLL_MS = 50;

    private final ShardRedis redis;
    private final Context context;
    private final long blockMs;
    private final Consumer<ShardId> onWake;
    /** The fenced read behind the blocking read, or null (cluster mode, tests). */
    private final ReadBehind behind;
    /** The shards claimed by the read behind the blocking read in flight. */
    private List<OwnedShard> claimed = List.of();
    private final Map<ShardId, String> idle = new LinkedHashMap<>();
    /**
     * Shards this loop woke that have not gone idle again, watched from the entry that woke them (standalone mode): when
     * such a shard goes idle, the read in flight already watches it (every entry it will have read is at or after that
     * one, so nothing after its last read can be missed) and needs no interrupt. A shard that gets more entries while it
     * reads is dropped from here by the wake-up those entries cause, so a busy shard does not keep the read returning.
     */
    private final Map<ShardId, String> woke = new LinkedHashMap<>();
    /** The shards the blocking read in flight watches. */
    private Set<ShardId> watched = Set.of();
    private RedisConnection connection;
    private long clientId = -1;
    private boolean connecting;
    private boolean reading;
    private boolean unblockSent;
    private boolean unblockScheduled;
    /** A shard went idle after the blocking read in flight was issued: that read does not watch it. */
    private boolean unwatched;
    private final long unblockDelayMs;
    private boolean closed;
    private int failures;
    private final boolean cluster;
    private final long pollMs;
    private boolean pollScheduled;

    WakeUpLoop(ShardRedis redis, Context context, long blockMs, Consumer<ShardId> onWake) {
        this(redis, context, blockMs, UNBLOCK_DELAY_MS, onWake, null);
    }

    /** A loop whose blocking reads carry {@code behind} (null: none). */
    WakeUpLoop(ShardRedis redis, Context context, long blockMs, Consumer<ShardId> onWake, ReadBehind behind) {
        this(redis, context, blockMs, UNBLOCK_DELAY_MS, onWake, behind);
    }

    /** As the other constructor, with the delay before a blocking read is interrupted for a shard gone idle (tests). */
    WakeUpLoop(ShardRedis redis, Context context, long blockMs, long unblockDelayMs, Consumer<ShardId> onWake) {
        this(redis, context, blockMs, unblockDelayMs, onWake, null);
    }

    private WakeUpLoop(ShardRedis redis, Context context, long blockMs, long unblockDelayMs, Consumer<ShardId> onWake,
                       ReadBehind behind) {
        this.unblockDelayMs = unblockDelayMs;
        this.redis = redis;
        this.context = context;
        this.blockMs = blockMs;
        this.onWake = onWake;
        this.cluster = redis.cluster();
        this.behind = cluster ? null : behind;
        this.pollMs = Math.max(1, Math.min(blockMs, MAX_CLUSTER_POLL_MS));
    }

    /** Waits for entries after {@code id} on {@code shard}. */
    void add(ShardId shard, String id) {
        // the read in flight watches it already (from an earlier id) if it was idle here, or woken and reading, when
        // that read was issued
        boolean covered = watched.contains(shard) && (idle.containsKey(shard) || woke.containsKey(shard));
        woke.remove(shard);
        idle.put(shard, id);
        if (!reading) {
            kick();
        } else if (!covered) {
            unwatched = true;
            interruptSoon();
        }
    }

    /** Stops waiting for {@code shard} (a wake-up already on its way is ignored). */
    void remove(ShardId shard) {
        idle.remove(shard);
        woke.remove(shard);
        if (reading && claims(shard)) {
            unwatched = true; // its outcome is awaited: have the read return now
            interruptSoon();
        }
    }

    private boolean claims(ShardId shard) {
        for (OwnedShard s : claimed) {
            if (s.shard().equals(shard)) {
                return true;
            }
        }
        return false;
    }

    /** Closes the connection; no more wake-ups. */
    Future<Void> close() {
        closed = true;
        idle.clear();
        woke.clear();
        RedisConnection c = connection;
        connection = null;
        return c == null ? Future.succeededFuture() : c.close().otherwise((Void) null);
    }

    private void kick() {
        if (cluster) {
            schedulePoll();
            return;
        }
        if (closed || reading || idle.isEmpty()) {
            return;
        }
        if (connection == null) {
            connect();
            return;
        }
        List<ShardId> shards = new ArrayList<>(idle.size() + woke.size());
        shards.addAll(idle.keySet());
        shards.addAll(woke.keySet());
        Request req = Request.cmd(Command.XREAD).arg("COUNT").arg(1).arg("BLOCK").arg(blockMs).arg("STREAMS");
        shards.forEach(s -> req.arg(s.key()));
        idle.values().forEach(req::arg);
        woke.values().forEach(req::arg);
        watched = new HashSet<>(shards);
        reading = true;
        unblockSent = false;
        unwatched = false;
        RedisConnection c = connection;
        List<OwnedShard> claim = claim();
        claimed = claim;
        Future<List<Response>> sent = claim.isEmpty() ? c.send(req).map(r -> java.util.Collections.singletonList(r))
                : c.batch(List.of(req, behind.request(claim, claim.stream().map(s -> idle.get(s.shard())).toList())));
        onContext(sent.timeout(blockMs + redis.commandTimeoutMs(), TimeUnit.MILLISECONDS), ar -> {
            reading = false;
            watched = Set.of();
            claimed = List.of();
            if (ar.failed()) {
                claim.forEach(s -> behind.port().landed(s, null)); // it may have read: outcome unknown
                failed(c, ar.cause());
                return;
            }
            failures = 0;
            Set<ShardId> decided = Set.of();
            if (!claim.isEmpty()) {
                List<ReadBehind.Outcome> outcomes;
                try {
                    outcomes = ReadBehind.parse(claim, ar.result().get(1));
                } catch (RuntimeException e) { // a reply of another shape: as lost (the shards replay what it read)
                    LOG.warn("Unexpected reply of the read behind a wake-up read: {}", e.toString());
                    outcomes = java.util.Collections.nCopies(claim.size(), null);
                }
                landed(claim, outcomes);
                decided = claim.stream().map(OwnedShard::shard).collect(java.util.stream.Collectors.toSet());
            }
            woken(ar.result().get(0), decided);
            kick();
        });
    }

    /** Claims the idle shards that went idle last for the read behind, at most {@link ReadBehind#MAX_SHARDS}. */
    private List<OwnedShard> claim() {
        if (behind == null) {
            return List.of();
        }
        List<OwnedShard> claim = new ArrayList<>();
        int skip = idle.size() - ReadBehind.MAX_SHARDS;
        for (ShardId shard : idle.keySet()) {
            if (skip-- > 0) {
                continue;
            }
            OwnedShard s = behind.port().claim(shard);
            if (s != null) {
                claim.add(s);
            }
        }
        return claim;
    }

    /**
     * The read behind landed: a shard it read records for (or could not read) stops waiting here and is watched from
     * the last entry read, as a shard this loop woke; a shard with nothing new stays idle.
     */
    private void landed(List<OwnedShard> claim, List<ReadBehind.Outcome> outcomes) {
        for (int i = 0; i < claim.size(); i++) {
            OwnedShard s = claim.get(i);
            ReadBehind.Outcome o = outcomes.get(i);
            if (o != ReadBehind.Outcome.NOTHING && idle.remove(s.shard()) != null && o != null && o.hasRecords()) {
                woke.put(s.shard(), o.page().cursor());
            }
        }
        for (int i = 0; i < claim.size(); i++) {
            behind.port().landed(claim.get(i), outcomes.get(i));
        }
    }

    // ---- cluster mode: polling per hash slot ----

    private void schedulePoll() {
        if (closed || pollScheduled || idle.isEmpty()) {
            return;
        }
        pollScheduled = true;
        context.owner().setTimer(pollMs, t -> context.runOnContext(v -> poll()));
    }

    private void poll() {
        if (closed) {
            return;
        }
        List<Future<Void>> reads = new ArrayList<>();
        for (List<ShardId> group : slotGroups(idle.keySet())) {
            Request req = Request.cmd(Command.XREAD).arg("COUNT").arg(1).arg("STREAMS");
            group.forEach(s -> req.arg(s.key()));
            group.forEach(s -> req.arg(idle.get(s)));
            Promise<Void> done = Promise.promise();
            onContext(redis.send(req), ar -> {
                if (ar.succeeded()) {
                    woken(ar.result());
                } else {
                    LOG.debug("Wake-up poll of {} failed; waking them (their reads back off): {}", group, ar.cause().toString());
                    group.stream().filter(s -> idle.remove(s) != null).forEach(onWake);
                }
                done.complete();
            });
            reads.add(done.future());
        }
        Future.join(reads).onComplete(ar -> {
            pollScheduled = false;
            schedulePoll();
        });
    }

    /** {@code shards} grouped by hash slot (one multi-key read per group), in a stable order. */
    static List<List<ShardId>> slotGroups(java.util.Collection<ShardId> shards) {
        Map<Integer, List<ShardId>> bySlot = new java.util.TreeMap<>();
        for (ShardId s : shards) {
            bySlot.computeIfAbsent(HashSlot.of(s.key()), k -> new ArrayList<>()).add(s);
        }
        return new ArrayList<>(bySlot.values());
    }

    private void woken(Response reply) {
        woken(reply, Set.of());
    }

    /** The wake-up read's {@code reply}; the shards in {@code decided} were read behind it and are left as they are. */
    private void woken(Response reply, Set<ShardId> decided) {
        if (reply == null) {
            return; // timed out or unblocked
        }
        if (reply.isMap()) {
            for (String key : reply.getKeys()) {
                woken(key, reply.get(key), decided);
            }
        } else {
            for (Response stream : reply) {
                woken(stream.get(0).toString(), stream.get(1), decided);
            }
        }
    }

    /** {@code entries}: what the read returned for the stream {@code key} (one entry, COUNT 1). */
    private void woken(String key, Response entries, Set<ShardId> decided) {
        ShardId shard = ShardId.fromKey(key);
        if (decided.contains(shard)) {
            return;
        }
        if (idle.remove(shard) != null) {
            if (!cluster && entries != null && entries.size() > 0) {
                woke.put(shard, entries.get(0).get(0).toString());
            }
            onWake.accept(shard);
        } else {
            woke.remove(shard); // still reading, and more came: watched again once it goes idle
        }
    }

    /**
     * Interrupts the blocking read so it is issued again with the new idle set. With a delay of 0 ({@value
     * #UNBLOCK_DELAY_MS}, the default) the interrupt goes at the end of the current task on the member's context, so
     * shards going idle in one burst share one {@code CLIENT UNBLOCK}: a record reaching a shard gone idle unwatched waits
     * about two round trips (the interrupt, the read issued again) instead of a timer's delay. (A 2 ms delay, tried
     * first, kept an estimated 2–3 % of records waiting up to 2 ms plus the timer's lateness: docs/benchmarks.md,
     * "Consumption", History.)
     * With a delay, the read may return by itself first (as soon as any shard it watches gets an entry). Either way
     * the check looks at the read in flight when it runs: a read issued after the interrupt was scheduled still
     * misses the shards that went idle after it was issued ({@code unwatched}), so it is interrupted too (one check
     * serves them all).
     */
    private void interruptSoon() {
        if (unblockScheduled || unblockSent) {
            return;
        }
        unblockScheduled = true;
        if (unblockDelayMs <= 0) {
            context.runOnContext(v -> interruptIfUnwatched());
        } else {
            context.owner().setTimer(unblockDelayMs, t -> context.runOnContext(v -> interruptIfUnwatched()));
        }
    }

    private void interruptIfUnwatched() {
        unblockScheduled = false;
        if (reading && unwatched) {
            interrupt();
        }
    }

    private void interrupt() {
        if (unblockSent || clientId < 0) {
            return;
        }
        unblockSent = true;
        redis.send(Request.cmd(Command.CLIENT).arg("UNBLOCK").arg(clientId))
                .onFailure(e -> LOG.debug("CLIENT UNBLOCK failed; the read ends by its BLOCK timeout", e));
    }

    private void connect() {
        if (connecting || closed) {
            return;
        }
        connecting = true;
        onContext(redis.connectDedicated().compose(c -> c.send(Request.cmd(Command.CLIENT).arg("ID")).map(id -> {
            clientId = id.toLong();
            return c;
        })), ar -> {
            connecting = false;
            if (ar.failed()) {
                failed(null, ar.cause());
                return;
            }
            connection = ar.result();
            connection.exceptionHandler(e -> LOG.debug("wake-up connection failed", e));
            if (closed) {
                connection.close();
                connection = null;
                return;
            }
            kick();
        });
    }

    private void failed(RedisConnection c, Throwable cause) {
        failures++;
        if (c != null) {
            c.close();
        }
        connection = null;
        clientId = -1;
        if (closed) {
            return;
        }
        LOG.warn("Wake-up read failed ({} in a row): {}; waking {} idle shards and reconnecting", failures, cause.toString(), idle.size());
        List<ShardId> all = new ArrayList<>(idle.keySet());
        idle.clear();
        woke.clear();
        all.forEach(onWake);
        long delay = Math.min(5_000, 50L << Math.min(failures, 7));
        context.owner().setTimer(delay, t -> context.runOnContext(v -> kick()));
    }

    private <T> void onContext(Future<T> future, Handler<AsyncResult<T>> handler) {
        future.onComplete(ar -> {
            if (Vertx.currentContext() == context) {
                handler.handle(ar); // already there: no extra task (and wait) on the wake-up's way to the read
            } else {
                context.runOnContext(v -> handler.handle(ar));
            }
        });
    }
}
