package io.shardline.runtime.store;

import io.shardline.coordinator.AuditEvent;
import io.shardline.runtime.redis.RedisClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail of every consumer group, durable in Redis: one stream per group ({@link MetadataKeys#audit}),
 * so it outlives the leader that wrote it and any worker can read it.
 *
 * <p>Written only by the guarded append or compaction of {@link RedisGroupLog} that commits the decisions the
 * events explain, in the same script: an event is stored exactly when its decision was, and a deposed leader (its
 * leader epoch taken) stores none. Each {@code XADD} caps the stream with {@code MAXLEN ~}
 * {@value #MAX_EVENTS_PER_GROUP}: Redis trims whole stream nodes, so a stream holds at least that many of its
 * newest events (once it had them) and at most one node more ({@code stream-node-max-entries}, default 100).
 *
 * <p>Format: every entry has one field, {@value #FIELD}, holding the event as a JSON object with the field names
 * of the REST entity ({@code type}, {@code member_id} and {@code shard} when there is one, {@code group_epoch},
 * {@code assignment_epoch}, {@code member_epoch}, {@code reason}). Its time is the millisecond part of the entry
 * id ({@code XADD *}: the Redis server's clock when the decision was committed, epoch milliseconds), read back as
 * {@code time_ms}: the coordinator's own clock is monotonic per JVM, so events of successive leaders would not
 * compare.
 *
 * <p>Thread-safe.
 */
public final class RedisAuditLog {

    /** How many of its newest events every group's stream keeps (approximately: see above). */
    public static final int MAX_EVENTS_PER_GROUP = 1_000;
    /** The one field of an entry: the event as JSON (the group log's scripts write it by this name). */
    public static final String FIELD = "event";

    private static final Logger LOG = LoggerFactory.getLogger(RedisAuditLog.class);
    /** How many malformed entries are remembered as already logged. */
    private static final int LOGGED_REMEMBERED = 1_000;

    private final RedisClient redis;
    private final MetadataKeys keys;
    private final Set<String> logged = Collections.newSetFromMap(new ConcurrentHashMap<>());

    /** A reader of one cluster's audit streams. */
    public RedisAuditLog(RedisClient redis, MetadataKeys keys) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /** The stored form of {@code event} (the value of {@value #FIELD}); its time is the entry id's. */
    public static String encode(AuditEvent event) {
        JsonObject o = new JsonObject().put("type", event.type().name());
        if (!event.memberId().isEmpty()) {
            o.put("member_id", event.memberId());
        }
        event.shard().ifPresent(s -> o.put("shard", s.stream() + ":" + s.index()));
        return o.put("group_epoch", event.groupEpoch())
                .put("assignment_epoch", event.assignmentEpoch())
                .put("member_epoch", event.memberEpoch())
                .put("reason", event.reason())
                .encode();
    }

    /**
     * Adds one event to {@code groupId}'s trail (capped like the coordinator's events), for decisions taken outside
     * the coordinator (an operator moving a group's position); answers the entry id.
     */
    public Future<String> append(String groupId, JsonObject event) {
        return redis.send(Request.cmd(Command.XADD).arg(keys.audit(groupId)).arg("MAXLEN").arg("~")
                .arg(MAX_EVENTS_PER_GROUP).arg("*").arg(FIELD).arg(event.encode())).map(String::valueOf);
    }

    /**
     * The newest {@code limit} entries of {@code groupId}'s stream, oldest first, each as the stored JSON object
     * plus {@code time_ms} (from the entry id) passed through {@code decode}. An entry that is not such an object,
     * or that {@code decode} rejects (throws), is skipped and logged once (a warning naming key and id), and older
     * entries are read in its place, so one bad entry cannot break the trail. Empty when the stream does not exist.
     */
    public <T> Future<List<T>> recent(String groupId, int limit, Function<JsonObject, T> decode) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        List<T> newestFirst = new ArrayList<>();
        return recent(keys.audit(groupId), "+", limit, decode, newestFirst).map(v -> {
            Collections.reverse(newestFirst);
            return newestFirst;
        });
    }

    /** Reads entries older than {@code end} ({@code +}: all) newest first into {@code out} until it holds {@code limit}. */
    private <T> Future<Void> recent(String key, String end, int limit, Function<JsonObject, T> decode, List<T> out) {
        int wanted = limit - out.size();
        return redis.send(Request.cmd(Command.XREVRANGE).arg(key).arg(end).arg("-").arg("COUNT").arg(wanted))
                .compose(reply -> {
                    String oldest = null;
                    int read = reply == null ? 0 : reply.size();
                    for (int i = 0; i < read; i++) {
                        Response entry = reply.get(i);
                        oldest = entry.get(0).toString();
                        try {
                            out.add(decode.apply(decodeEntry(oldest, entry.get(1))));
                        } catch (RuntimeException e) {
                            logOnce(key, oldest, e);
                        }
                    }
                    if (read < wanted || out.size() >= limit) {
                        return Future.succeededFuture();
                    }
                    return recent(key, "(" + oldest, limit, decode, out);
                });
    }

    private static JsonObject decodeEntry(String id, Response fields) {
        String json = field(fields);
        if (json == null) {
            throw new IllegalArgumentException("no field '" + FIELD + "'");
        }
        JsonObject o = new JsonObject(json);
        int dash = id.indexOf('-');
        return o.put("time_ms", Long.parseLong(dash < 0 ? id : id.substring(0, dash)));
    }

    /** The value of {@value #FIELD} in an entry's fields (a flat field/value array, or a map under RESP3). */
    private static String field(Response fields) {
        if (fields == null) {
            return null;
        }
        if (fields.isMap()) {
            Response value = fields.get(FIELD);
            return value == null ? null : value.toString();
        }
        Iterator<Response> it = fields.iterator();
        while (it.hasNext()) {
            String name = String.valueOf(it.next());
            Response value = it.hasNext() ? it.next() : null;
            if (FIELD.equals(name) && value != null) {
                return value.toString();
            }
        }
        return null;
    }

    private void logOnce(String key, String id, RuntimeException e) {
        if (logged.size() >= LOGGED_REMEMBERED) {
            logged.clear();
        }
        if (logged.add(key + " " + id)) {
            LOG.warn("Skipping malformed audit entry {} of {}: {} (further reads skip it silently)", id, key,
                    e.getMessage());
        }
    }
}
