package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.producer.KeyPartitioner;
import io.shardline.producer.ShardProducer;
import io.shardline.producer.routing.AddResult;
import io.shardline.producer.routing.RoutingTopology;
import io.shardline.producer.routing.ShardRouting;
import io.shardline.producer.routing.StaleRouting;
import io.shardline.producer.routing.Topologies;
import io.shardline.runtime.redis.ClientRoutingRedis;
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
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes dead letters back (docs/operations.md, "Dead letters"): each one's own fields (without {@code __dlq.*}) to
 * the shard its key routes to under its stream's topology (created with the listener's shard count when the stream has
 * none yet), as the producer routes ({@link KeyPartitioner} over the
 * topology's shard count, written by the epoch-checked add of {@link ShardRouting}: a shard at a newer routing epoch
 * refuses, the topology is read again and the letter routed anew, at most {@value ShardProducer#MAX_ATTEMPTS} times;
 * a record without a key goes back to its shard index, modulo the shard count), or to another stream; oldest first,
 * one at a time. A dead letter is removed from the dead-letter stream only after its write succeeded: both in one
 * step on a single Redis, the write then the removal on a Redis Cluster (where the two keys lie in different slots; a
 * failure between them leaves it in both places, never in neither). Every target is checked before anything is
 * written. One audit event per request in the listener's group. Thread-safe.
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
    private final ShardRouting routing;
    private final Topologies topologies;
    private final String clusterName;

    DeadLetterRedriver(ClusterView cluster, RedisClient redis) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.audit = new RedisAuditLog(redis, new MetadataKeys(cluster.clusterName()));
        this.routing = new ShardRouting(new ClientRoutingRedis(redis));
        this.topologies = new Topologies(new ClientRoutingRedis(redis));
        this.clusterName = cluster.clusterName();
    }

    /** Redrives {@code entries} (oldest first) of dead-letter stream {@code dlq}. */
    Future<Redriven> redrive(ListenerShape shape, String dlq, List<Response> entries, String toStream, boolean dryRun) {
        if (dlq.equals(toStream)) {
            return Future.failedFuture(ControlPlaneException.badRequest("to_stream: '" + toStream + "' is the "
                    + "dead-letter stream itself; name another stream, or leave it out to write back to the source shards"));
        }
        List<Letter> letters = new ArrayList<>();
        for (Response entry : entries) {
            letters.add(letter(shape, dlq, entry, toStream));
        }
        Map<String, RoutingTopology> routed = new ConcurrentHashMap<>();
        List<Future<?>> reads = letters.stream().map(Letter::stream).filter(Objects::nonNull).distinct()
                .<Future<?>>map(stream -> firstTopology(shape, stream, dryRun).onSuccess(t -> routed.put(stream, t))).toList();
        return Future.all(reads).compose(read -> {
            if (dryRun) {
                return Future.succeededFuture(new Redriven("Dry run: nothing was changed; these dead letters would be "
                        + "written back", true, letters.stream().map(l -> l.planned(routed, null)).toList(), List.of()));
            }
            List<Redriven.Letter> done = new ArrayList<>();
            List<String> skipped = new ArrayList<>();
            return next(letters, 0, dlq, routed, done, skipped)
                    .compose(v -> done.isEmpty() ? Future.succeededFuture() : audit.append(shape.group(),
                            event(shape, dlq, done, toStream)).mapEmpty())
                    .map(v -> new Redriven(done.size() + " dead letter(s) written back and removed from " + dlq, false,
                            done, skipped));
        });
    }

    /**
     * The topology a stream's letters are routed with; a stream without one (its listener never started) gets it
     * created with the listener's shard count, as the listener's first start would (a dry run only assumes it).
     */
    private Future<RoutingTopology> firstTopology(ListenerShape shape, String stream, boolean dryRun) {
        return topologies.read(stream).compose(found -> {
            if (found.isPresent()) {
                return Future.succeededFuture(found.get());
            }
            int shards = (int) shape.shardCount(stream);
            return dryRun ? Future.succeededFuture(new RoutingTopology(stream, shards, 1))
                    : topologies.create(stream, shards, "dead-letter redrive of listener " + shape.name(), clusterName)
                            .map(c -> c.topology(stream));
        });
    }

    private Future<RoutingTopology> topology(String stream) {
        return topologies.read(stream).map(found -> found.orElseThrow(() -> ControlPlaneException.conflict("stream '"
                + stream + "' has no topology (" + RoutingTopology.key(stream) + "), so its shard count is unknown: "
                + "create it with 'bin/shardline streams create " + stream + " --shards N'; nothing was redriven")));
    }

    private Future<Void> next(List<Letter> letters, int i, String dlq, Map<String, RoutingTopology> routed,
                              List<Redriven.Letter> done, List<String> skipped) {
        if (i == letters.size()) {
            return Future.succeededFuture();
        }
        Letter l = letters.get(i);
        Future<Redriven.Letter> moved = l.stream() == null ? moveTo(l, dlq) : moveBack(l, dlq, routed, 1);
        return moved.compose(letter -> {
            if (letter == null) {
                skipped.add(l.id());
            } else {
                done.add(letter);
            }
            return next(letters, i + 1, dlq, routed, done, skipped);
        });
    }

    /** To another stream ({@code to_stream}): a plain {@code XADD}, no routing. */
    private Future<Redriven.Letter> moveTo(Letter l, String dlq) {
        if (!redis.config().cluster()) {
            List<String> args = new ArrayList<>();
            args.add(l.id());
            l.fields().forEach((k, v) -> {
                args.add(k);
                args.add(v);
            });
            return MOVE.call(redis, List.of(l.to(), dlq), args).map(r -> r == null ? null : l.planned(Map.of(), r.toString()));
        }
        Request add = Request.cmd(Command.XADD).arg(l.to()).arg("*");
        l.fields().forEach((k, v) -> add.arg(k).arg(v));
        return redis.send(add).compose(id -> redis.send(Request.cmd(Command.XDEL).arg(dlq).arg(l.id()))
                .map(n -> l.planned(Map.of(), id.toString())));
    }

    /** Back to the key's shard under the topology, epoch-checked; a refusal reads the topology again. */
    private Future<Redriven.Letter> moveBack(Letter l, String dlq, Map<String, RoutingTopology> routed, int attempt) {
        RoutingTopology t = routed.get(l.stream());
        int shard = l.shard(t);
        Future<Optional<AddResult>> moved;
        if (!redis.config().cluster()) {
            moved = routing.move(l.stream(), shard, t.routingEpoch(), dlq, l.id(), l.fields());
        } else {
            List<String> args = new ArrayList<>(List.of("*"));
            l.fields().forEach((k, v) -> {
                args.add(k);
                args.add(v);
            });
            moved = routing.add(l.stream(), shard, t.routingEpoch(), args).compose(r -> r instanceof AddResult.Written
                    ? redis.send(Request.cmd(Command.XDEL).arg(dlq).arg(l.id())).map(n -> Optional.of(r))
                    : Future.succeededFuture(Optional.of(r)));
        }
        return moved.compose(result -> {
            if (result.isEmpty()) {
                return Future.succeededFuture(null);
            }
            if (result.get() instanceof AddResult.Written written) {
                return Future.succeededFuture(l.planned(routed, written.id()));
            }
            StaleRouting stale = ((AddResult.Refused) result.get()).stale();
            if (attempt >= ShardProducer.MAX_ATTEMPTS) {
                return Future.failedFuture(ControlPlaneException.conflict("dead letter " + l.id() + " was refused " + attempt
                        + " times (" + stale + "): the topology of stream '" + l.stream() + "' kept changing; it is still in "
                        + dlq + "; redrive it again when 'bin/shardline streams describe " + l.stream() + "' shows it STABLE"));
            }
            return topology(l.stream()).compose(next -> {
                routed.put(l.stream(), next);
                return moveBack(l, dlq, routed, attempt + 1);
            });
        });
    }

    private static Letter letter(ListenerShape shape, String dlq, Response entry, String toStream) {
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
            return new Letter(id, toStream, null, null, 0, own);
        }
        String stream = all.get("__dlq.stream");
        if (stream == null || shape.shardCount(stream) == 0) {
            throw ControlPlaneException.conflict("dead letter " + id + " came from stream '" + stream + "', which "
                    + "listener '" + shape.name() + "' does not consume now; redrive it with to_stream (--to-stream); "
                    + "nothing was redriven");
        }
        String origin = all.get("__dlq.shard");
        return new Letter(id, null, stream, all.get("__key"), origin == null ? 0 : Integer.parseInt(origin.trim()), own);
    }

    private static JsonObject event(ListenerShape shape, String dlq, List<Redriven.Letter> done, String toStream) {
        List<String> ids = done.stream().map(Redriven.Letter::id).limit(20).toList();
        String where = toStream != null ? "stream " + toStream : "their source shards "
                + done.stream().map(Redriven.Letter::to).distinct().sorted().limit(20).toList();
        return new JsonObject().put("type", DEAD_LETTER_REDRIVE).put("group_epoch", 0).put("assignment_epoch", 0)
                .put("member_epoch", -1).put("reason", done.size() + " dead letter(s) of listener " + shape.name()
                        + " redriven from " + dlq + " to " + where + ": " + ids + (done.size() > ids.size() ? " ..." : ""));
    }

    /**
     * One dead letter to write: to stream key {@code to}, or back to {@code stream}'s shard of {@code key} (of
     * {@code originShard} modulo the shard count when it has no key).
     */
    private record Letter(String id, String to, String stream, String key, int originShard, Map<String, String> fields) {

        int shard(RoutingTopology t) {
            return key != null ? KeyPartitioner.shardFor(key, t.shards()) : Math.floorMod(originShard, t.shards());
        }

        Redriven.Letter planned(Map<String, RoutingTopology> routed, String newId) {
            if (stream == null) {
                return new Redriven.Letter(id, to, null, null, newId);
            }
            int shard = shard(routed.get(stream));
            return new Redriven.Letter(id, new ShardId(stream, shard).key(), stream, shard, newId);
        }
    }
}
