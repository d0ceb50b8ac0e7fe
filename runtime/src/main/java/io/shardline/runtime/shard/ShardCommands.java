package io.shardline.runtime.shard;

import io.shardline.api.handler.EntryFields;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.runtime.redis.RedisErrorKind;
import io.shardline.runtime.topology.GroupCreation;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shard operations, as typed calls of the {@code shardline} Redis FUNCTION library
 * ({@code shardline.lua} beside this class): fenced read, fenced ack / ack-delete, fenced takeover
 * (XAUTOCLAIM JUSTID, paged) and set-owner, plus group creation and dead-letter writes. A call that finds
 * the library missing (Redis restarted) loads it again and retries once. The hot path (acknowledge a batch
 * and read the next, or read new entries) is a {@link FencedTransaction} by default ({@link HotPath}).
 * Thread-safe.
 */
public final class ShardCommands {

    /** The library's source text. */
    public static final String LIBRARY = loadLibrarySource();

    private static final Logger LOG = LoggerFactory.getLogger(ShardCommands.class);

    private final ShardRedis redis;
    private final HotPath hotPath;
    private final FencedTransaction transaction;

    /** Commands over {@code redis}; the hot path is {@link HotPath#TRANSACTION}, or the script on a Redis Cluster. */
    public ShardCommands(ShardRedis redis) {
        this(redis, redis.cluster() ? HotPath.SCRIPT : HotPath.TRANSACTION);
    }

    /** Commands over {@code redis} with the given hot path (a cluster always gets {@link HotPath#SCRIPT}). */
    public ShardCommands(ShardRedis redis, HotPath hotPath) {
        this.redis = redis;
        this.hotPath = redis.cluster() ? HotPath.SCRIPT : hotPath;
        this.transaction = new FencedTransaction(redis.commandTimeoutMs());
    }

    /** The hot path in use. */
    public HotPath hotPath() {
        return hotPath;
    }

    /**
     * The page of a fenced read: the cursor (see {@code shard_read} in the library), the live entries, and
     * {@code waitingEpoch}: when above 0, the read of new entries found nothing left at or below the unreleased
     * cutover of that routing epoch (docs/protocol.md section 8b, "The read rule"): the shard waits there until the
     * group's barrier is released ({@code released:<group> >= waitingEpoch} in the routing hash).
     */
    public record ReadResult(String cursor, List<StreamRecord> records, long waitingEpoch) {

        /** A page read without a cutover in the way. */
        public ReadResult(String cursor, List<StreamRecord> records) {
            this(cursor, records, 0);
        }

        /** True when the shard waits at a cutover ({@link #waitingEpoch} above 0; then no records). */
        public boolean waiting() {
            return waitingEpoch > 0;
        }
    }

    /** One page of a takeover sweep: the next cursor ({@code 0-0} when complete) and how many entries moved. */
    public record TakeoverPage(String nextCursor, long claimed) {

        /** True when the sweep is complete. */
        public boolean done() {
            return "0-0".equals(nextCursor);
        }
    }

    /**
     * Loads (or replaces) the function library with {@code FUNCTION LOAD REPLACE} on every primary (a Redis
     * Cluster keeps functions per node; replicas get them by replication).
     */
    public Future<Void> loadLibrary() {
        return redis.sendToAllPrimaries(Request.cmd(Command.FUNCTION).arg("LOAD").arg("REPLACE").arg(LIBRARY));
    }

    /** Fenced {@code XREADGROUP ... COUNT count STREAMS shard id}; {@code id} is {@code >} or a PEL cursor. */
    public Future<ReadResult> read(ShardId shard, String group, String member, long epoch, int count, String id) {
        if (">".equals(id) && hotPath == HotPath.TRANSACTION) {
            return ackAndRead(shard, group, member, epoch, AckMode.ACK, List.of(), count);
        }
        return scriptRead(shard, group, member, epoch, count, id);
    }

    private Future<ReadResult> scriptRead(ShardId shard, String group, String member, long epoch, int count, String id) {
        return withLibrary(() -> redis.send(readCall("shard_read", shard, group).arg(group).arg(member).arg(epoch).arg(count).arg(id))
                .map(r -> parseRead(shard, r)));
    }

    /** Fenced acknowledgement of {@code ids} ({@code XACK}, atomic {@code XACK+XDEL}, or {@code XACKDEL}). */
    public Future<Long> ack(ShardId shard, String group, String member, long epoch, AckMode mode, List<String> ids) {
        return withLibrary(() -> {
            Request req = fcall("shard_ack", shard, group).arg(group).arg(member).arg(epoch).arg(scriptMode(mode));
            ids.forEach(req::arg);
            return redis.send(req).map(Response::toLong);
        });
    }

    /**
     * Fenced acknowledgement of {@code ids} followed by a fenced read of up to {@code count} new entries: one
     * {@link FencedTransaction} on an exclusive connection ({@link HotPath#TRANSACTION}), or one script call
     * ({@link HotPath#SCRIPT}).
     */
    public Future<ReadResult> ackAndRead(ShardId shard, String group, String member, long epoch, AckMode mode,
                                         List<String> ids, int count) {
        return ackAndRead(shard, group, member, epoch, mode, ids, count, false);
    }

    /**
     * As {@link #ackAndRead(ShardId, String, String, long, AckMode, List, int)}, but a shard that is keeping up
     * ({@code keepingUp}: its last read came back with at most {@link #smallRead} entries) takes the script on the
     * {@link HotPath#TRANSACTION} hot path too: one round trip instead of two, and the script's cost per entry read
     * (Redis turning entries into Lua tables and back) is small when few come back. A shard that is behind (full
     * batches) keeps the transaction, which costs Redis nothing per entry. Both are fenced the same way.
     */
    public Future<ReadResult> ackAndRead(ShardId shard, String group, String member, long epoch, AckMode mode,
                                         List<String> ids, int count, boolean keepingUp) {
        if (hotPath == HotPath.TRANSACTION && !keepingUp) {
            String ackMode = scriptMode(mode);
            // null: the routing hash holds a cutover this group has not passed; the script enforces the read rule
            return redis.exclusiveConnections().with(c ->
                    transaction.ackAndRead(c, shard, group, member, epoch, ackMode, ids, count))
                    .compose(r -> r != null ? Future.succeededFuture(r) : scriptAckAndRead(shard, group, member, epoch, mode, ids, count));
        }
        return scriptAckAndRead(shard, group, member, epoch, mode, ids, count);
    }

    private Future<ReadResult> scriptAckAndRead(ShardId shard, String group, String member, long epoch, AckMode mode,
                                                List<String> ids, int count) {
        return withLibrary(() -> {
            Request req = readCall("shard_ack_read", shard, group).arg(group).arg(member).arg(epoch).arg(scriptMode(mode)).arg(count);
            ids.forEach(req::arg);
            return redis.send(req).map(r -> parseRead(shard, r));
        });
    }

    /**
     * A read of at most this many entries (of a batch size of {@code count}) counts as a shard keeping up: its next
     * ack-and-read may take the one-round-trip script ({@link #ackAndRead(ShardId, String, String, long, AckMode,
     * List, int, boolean)}).
     */
    public static int smallRead(int count) {
        return Math.max(1, count / 8);
    }

    /** Fenced read of new entries ({@code >}) by the one-round-trip script, whatever the hot path: for an idle shard just woken. */
    public Future<ReadResult> readNew(ShardId shard, String group, String member, long epoch, int count) {
        return scriptRead(shard, group, member, epoch, count, ">");
    }

    /**
     * Whether group {@code fence.group()}'s barrier at the cutover of routing epoch {@code epoch} is released on the
     * shard: its routing hash has {@code released:<group> >= epoch}, or no {@code cutover:<epoch>} field any more (the
     * leader removes the fields of a finished change). One {@code HMGET}; not fenced (it reads nothing of the stream).
     */
    public Future<Boolean> cutoverReleased(Fence fence, long epoch) {
        return redis.send(Request.cmd(Command.HMGET).arg(fence.routingKey()).arg("released:" + fence.group())
                .arg("cutover:" + epoch)).map(r -> CutoverRouting.released(r, epoch));
    }

    /** One page of the fenced takeover sweep: moves pending entries of any consumer to {@code member}. */
    public Future<TakeoverPage> takeover(ShardId shard, String group, String member, long epoch, String cursor, int count) {
        return withLibrary(() -> redis.send(fcall("shard_takeover", shard, group).arg(group).arg(member).arg(epoch).arg(cursor).arg(count))
                .map(r -> new TakeoverPage(r.get(0).toString(), r.get(1).toLong())));
    }

    /** {@link #read(ShardId, String, String, long, int, String)} under {@code fence}. */
    public Future<ReadResult> read(Fence fence, int count, String id) {
        return read(fence.shard(), fence.group(), fence.member(), fence.ownerEpoch(), count, id);
    }

    /** {@link #readNew(ShardId, String, String, long, int)} under {@code fence}. */
    public Future<ReadResult> readNew(Fence fence, int count) {
        return readNew(fence.shard(), fence.group(), fence.member(), fence.ownerEpoch(), count);
    }

    /** {@link #ack(ShardId, String, String, long, AckMode, List)} under {@code fence}. */
    public Future<Long> ack(Fence fence, AckMode mode, List<String> ids) {
        return ack(fence.shard(), fence.group(), fence.member(), fence.ownerEpoch(), mode, ids);
    }

    /** {@link #ackAndRead(ShardId, String, String, long, AckMode, List, int, boolean)} under {@code fence}. */
    public Future<ReadResult> ackAndRead(Fence fence, AckMode mode, List<String> ids, int count, boolean keepingUp) {
        return ackAndRead(fence.shard(), fence.group(), fence.member(), fence.ownerEpoch(), mode, ids, count, keepingUp);
    }

    /** {@link #takeover(ShardId, String, String, long, String, int)} under {@code fence}. */
    public Future<TakeoverPage> takeover(Fence fence, String cursor, int count) {
        return takeover(fence.shard(), fence.group(), fence.member(), fence.ownerEpoch(), cursor, count);
    }

    /**
     * Records {@code member} as the owner of {@code shard} for consumer group {@code group} under {@code epoch}
     * (owner key {@code {<stream>:<i>}:owner:<group>}); called by the coordinator side when it hands the shard
     * over. Refused (failed future, {@code STALE_EPOCH ...}) unless the epoch is higher than the one recorded
     * for this group; the same owner and epoch again is a no-op. Other groups' owners are not touched.
     *
     * @return true when written, false when it was already so
     */
    public Future<Boolean> setOwner(ShardId shard, String group, String member, long epoch) {
        return withLibrary(() -> redis.send(fcall("shard_set_owner", shard, group).arg(member).arg(epoch)).map(r -> r.toLong() == 1));
    }

    /**
     * Creates the shard stream and the group at {@code startId} ({@code 0} or {@code $}) when missing, unless a
     * resharding retired the shard ({@link GroupCreation}): a listener started with the count before a change that
     * completed meanwhile, or a member still holding a retired shard that finds its group gone ({@code NOGROUP}),
     * must not bring its key back as an empty stream nobody writes or reads.
     *
     * @return true when the group exists now, false when the shard is retired (nothing created)
     */
    public Future<Boolean> ensureGroup(ShardId shard, String group, String startId) {
        return GroupCreation.createUnlessRetired(redis::send, shard.key(), Fence.routingKey(shard), group, startId);
    }

    /**
     * Notes {@code error} as the last handler error of {@code ids} in the shard's error hash ({@link #errorsKey}),
     * kept while the entries are pending so that a record dead-lettered at {@code max.deliveries} (possibly by another
     * worker, after this one died) carries it.
     */
    public Future<Void> noteError(ShardId shard, String group, List<String> ids, String error) {
        return withLibrary(() -> {
            Request req = errorCall("shard_note_error", shard, group).arg(group).arg(error);
            ids.forEach(req::arg);
            return redis.send(req).mapEmpty();
        });
    }

    /** The last handler error noted for entry {@code id} ({@link #noteError}), empty when none. */
    public Future<java.util.Optional<String>> lastError(ShardId shard, String group, String id) {
        return withLibrary(() -> redis.send(errorCall("shard_error", shard, group).arg("GET").arg(id))
                .map(r -> java.util.Optional.ofNullable(r == null ? null : r.toString())));
    }

    /** Drops the error noted for entry {@code id} (its dead letter is written). */
    public Future<Void> clearError(ShardId shard, String group, String id) {
        return withLibrary(() -> redis.send(errorCall("shard_error", shard, group).arg("DEL").arg(id)).mapEmpty());
    }

    /** The key of a shard's error hash for {@code group}: {@code {<stream>:<i>}:errors:<group>} (the shard's slot). */
    public static String errorsKey(ShardId shard, String group) {
        return shard.key() + ":errors:" + group;
    }

    private static Request errorCall(String function, ShardId shard, String group) {
        return Request.cmd(Command.FCALL).arg(function).arg(2).arg(shard.key()).arg(errorsKey(shard, group));
    }

    /** Appends {@code fields} to {@code stream} ({@code XADD stream * ...}); returns the new entry id. */
    public Future<String> append(String stream, Map<String, String> fields) {
        Request req = Request.cmd(Command.XADD).arg(stream).arg("*");
        fields.forEach((k, v) -> req.arg(k).arg(v));
        return redis.send(req).map(Response::toString);
    }


    private <T> Future<T> withLibrary(Supplier<Future<T>> call) {
        return call.get().recover(e -> {
            if (ShardFailure.of(e) != ShardFailure.NO_LIBRARY) {
                return Future.failedFuture(e);
            }
            LOG.warn("The shardline function library is missing on Redis (restarted, failed over or resharded?); "
                    + "loading it again");
            // Also when loading fails on some primary (one is down): the node this call needs may have it now.
            return loadLibrary()
                    .recover(load -> {
                        LOG.warn("Loading the shardline function library failed on some Redis node: {}", load.getMessage());
                        return Future.succeededFuture();
                    })
                    .compose(v -> call.get());
        });
    }

    private String scriptMode(AckMode mode) {
        return mode == AckMode.ACK ? "KEEP" : redis.supportsXackdel() ? "XACKDEL" : "DEL";
    }

    private static Request fcall(String function, ShardId shard, String group) {
        return Request.cmd(Command.FCALL).arg(function).arg(2).arg(shard.key()).arg(shard.ownerKey(group));
    }

    /** A read function's call: shard, owner key and the shard's routing hash, whose cutovers bound reads of new entries. */
    private static Request readCall(String function, ShardId shard, String group) {
        return Request.cmd(Command.FCALL).arg(function).arg(3).arg(shard.key()).arg(shard.ownerKey(group))
                .arg(Fence.routingKey(shard));
    }

    static ReadResult parseRead(ShardId shard, Response reply) {
        String cursor = reply.get(0).toString();
        if (reply.size() > 2) {
            return new ReadResult(cursor, List.of(), reply.get(2).toLong()); // waits at the cutover of that epoch
        }
        Response entries = reply.get(1);
        List<StreamRecord> records = new ArrayList<>(entries.size());
        for (Response entry : entries) {
            EntryFields fields = fields(entry.get(1));
            int deliveries = entry.size() > 2 ? entry.get(2).toInteger() : 1;
            records.add(new StreamRecord(shard, entry.get(0).toString(), fields, deliveries));
        }
        return new ReadResult(cursor, records);
    }

    /**
     * An entry's fields from its reply: a flat array of names and values (RESP2, and the script's replies) or a map
     * (RESP3), decoded as UTF-8 into an {@link EntryFields} when first used, that is on the handler's thread (the
     * event loop that read the reply only parses it), and only if the handler looks at them.
     */
    static EntryFields fields(Response raw) {
        if (raw == null || raw.size() == 0) {
            return EntryFields.of();
        }
        return EntryFields.decodedOnFirstUse(() -> decode(raw));
    }

    private static String[] decode(Response raw) {
        String[] kv;
        if (raw.isMap()) {
            kv = new String[raw.size() * 2];
            int i = 0;
            for (String k : raw.getKeys()) {
                kv[i++] = k;
                kv[i++] = raw.get(k).toString();
            }
        } else {
            kv = new String[raw.size() & ~1];
            for (int f = 0; f < kv.length; f++) {
                kv[f] = raw.get(f).toString();
            }
        }
        return kv;
    }

    private static String loadLibrarySource() {
        try (InputStream in = ShardCommands.class.getResourceAsStream("shardline.lua")) {
            if (in == null) {
                throw new IllegalStateException("shardline.lua is missing from the runtime jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
