package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.producer.KeyPartitioner;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisReplies;
import io.shardline.runtime.rest.entity.Redriven;
import io.shardline.runtime.store.LuaScript;
import io.shardline.runtime.store.MetadataKeys;
import io.shardline.runtime.store.RedisAuditLog;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes dead letters back (docs/operations.md, "Dead letters"): each one's own fields (without {@code __dlq.*}) to
 * the shard its key routes to under the listener's current shard count of its stream ({@link KeyPartitioner}, as the
 * producer routes; a record without a key goes back to its shard index, modulo the shard count), or to another
 * stream; oldest first, one at a time. A dead letter is removed from the dead-letter stream only after its write
 * succeeded: both in one script on a single Redis, the write then the removal on a Redis Cluster (where the two keys
 * lie in different slots; a failure between them leaves it in both places, never in neither). Every targets are
 * checked before anything is written. One audit event per request in the listener's group. Thread-safe.
 */
final class DeadLetterRedriver {

    /** The audit event type of a redrive. */
    static final String DEAD_LETTER_REDRIVE = "DEAD_LETTER_REDRIVE";

    /** KEYS: target, dead-letter stream; ARGV: dead-letter id, field, value, ... -> the new id, or false when gone. */
    private static final LuaScript MOVE = LuaScript.of("""
            if #redis.call('XREVRANGE', KEYS[2], ARGV[1], ARGV[1], 'COUNT', 1) == 0 then return false end
            local id = redis.call('XADD', KEYS[1], '*', unpack(ARGV, 2))
            redis.call('XDEL', KEYS[2], ARGV[1])
            return id
            """);

    private final RedisClient redis;
    private final RedisAuditLog audit;

    DeadLetterRedriver(ClusterView cluster, RedisClient redis) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.audit = new RedisAuditLog(redis, new MetadataKeys(cluster.clusterName()));
    }

    /** Redrives {@code entries} (oldest first) of dead-letter stream {@code dlq}. */
    Future<Redriven> redrive(ListenerShape shape, String dlq, List<Response> entries, String toStream, boolean dryRun) {
        if (dlq.equals(toStream)) {
            return Future.failedFuture(ControlPlaneException.badRequest("to_stream: '" + toStream + "' is the "
                    + "dead-letter stream itself; name another stream, or leave it out to write back to the source shards"));
        }
        List<Planned> plan = new ArrayList<>();
        for (Response entry : entries) {
            plan.add(plan(shape, dlq, entry, toStream));
        }
        if (dryRun) {
            return Future.succeededFuture(new Redriven("Dry run: nothing was changed; these dead letters would be "
                    + "written back", true, plan.stream().map(p -> p.letter(null)).toList(), List.of()));
        }
        List<Redriven.Letter> done = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        return next(plan, 0, dlq, done, skipped)
                .compose(v -> done.isEmpty() ? Future.succeededFuture() : audit.append(shape.group(),
                        event(shape, dlq, done, toStream)).mapEmpty())
                .map(v -> new Redriven(done.size() + " dead letter(s) written back and removed from " + dlq, false,
                        done, skipped));
    }

    private Future<Void> next(List<Planned> plan, int i, String dlq, List<Redriven.Letter> done, List<String> skipped) {
        if (i == plan.size()) {
            return Future.succeededFuture();
        }
        Planned p = plan.get(i);
        return move(p, dlq).compose(newId -> {
            if (newId == null) {
                skipped.add(p.id());
            } else {
                done.add(p.letter(newId));
            }
            return next(plan, i + 1, dlq, done, skipped);
        });
    }

    private Future<String> move(Planned p, String dlq) {
        if (redis.config().clusterUrls().isEmpty()) {
            List<String> args = new ArrayList<>();
            args.add(p.id());
            p.fields().forEach((k, v) -> {
                args.add(k);
                args.add(v);
            });
            return MOVE.call(redis, List.of(p.to(), dlq), args).map(r -> r == null ? null : r.toString());
        }
        Request add = Request.cmd(Command.XADD).arg(p.to()).arg("*");
        p.fields().forEach((k, v) -> add.arg(k).arg(v));
        return redis.send(add).compose(id -> redis.send(Request.cmd(Command.XDEL).arg(dlq).arg(p.id()))
                .map(n -> id.toString()));
    }

    private static Planned plan(ListenerShape shape, String dlq, Response entry, String toStream) {
        String id = entry.get(0).toString();
        Map<String, String> all = RedisReplies.toStringMap(entry.get(1));
        Map<String, String> own = new LinkedHashMap<>();
        all.forEach((k, v) -> {
            if (!k.startsWith(DeadLetterAdmin.META_PREFIX)) {
                own.put(k, v);
            }
        });
        if (own.isEmpty()) {
            throw ControlPlaneException.badRequest("dead letter " + id + " of " + dlq + " has no fields of its own to "
                    + "write back; nothing was redriven");
        }
        if (toStream != null) {
            return new Planned(id, toStream, null, null, own);
        }
        String stream = all.get("__dlq.stream");
        long count = stream == null ? 0 : shape.shardCount(stream);
        if (count == 0) {
            throw ControlPlaneException.conflict("dead letter " + id + " came from stream '" + stream + "', which "
                    + "listener '" + shape.name() + "' does not consume now; redrive it with to_stream (--to-stream); "
                    + "nothing was redriven");
        }
        String key = all.get("__key");
        int shard;
        if (key != null) {
            shard = KeyPartitioner.shardFor(key, (int) count);
        } else {
            String origin = all.get("__dlq.shard");
            shard = origin == null ? 0 : Math.floorMod(Integer.parseInt(origin.trim()), (int) count);
        }
        return new Planned(id, new ShardId(stream, shard).key(), stream, shard, own);
    }

    private static JsonObject event(ListenerShape shape, String dlq, List<Redriven.Letter> done, String toStream) {
        List<String> ids = done.stream().map(Redriven.Letter::id).limit(20).toList();
        String where = toStream != null ? "stream " + toStream : "their source shards "
                + done.stream().map(Redriven.Letter::to).distinct().sorted().limit(20).toList();
        return new JsonObject().put("type", DEAD_LETTER_REDRIVE).put("group_epoch", 0).put("assignment_epoch", 0)
                .put("member_epoch", -1).put("reason", done.size() + " dead letter(s) of listener " + shape.name()
                        + " redriven from " + dlq + " to " + where + ": " + ids + (done.size() > ids.size() ? " ..." : ""));
    }

    /** One dead letter's write: where and what. */
    private record Planned(String id, String to, String stream, Integer shard, Map<String, String> fields) {

        Redriven.Letter letter(String newId) {
            return new Redriven.Letter(id, to, stream, shard, newId);
        }
    }
}
