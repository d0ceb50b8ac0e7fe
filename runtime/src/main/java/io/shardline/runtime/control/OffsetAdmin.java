package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.redis.Chunked;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.rest.entity.ListenerOffsets;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.OffsetChange;
import io.shardline.runtime.rest.entity.OffsetsAltered;
import io.shardline.runtime.rest.entity.ShardOffset;
import io.shardline.runtime.rest.entity.TargetState;
import io.shardline.runtime.store.MetadataKeys;
import io.shardline.runtime.store.RedisAuditLog;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A listener's positions (Connect KIP-875's offsets API over Redis consumer groups): read on every shard, moved
 * ({@code PATCH}) or reset to {@code start.from} ({@code DELETE}) only while the listener is {@code STOPPED} and
 * none of its members runs anywhere (409 otherwise), each shard in one atomic script that drops the group's pending
 * entries of that shard and sets its last delivered id ({@link PositionScripts}). Every applied move is written to
 * the group's audit trail with the position before and after. A dry run computes the same changes, applies
 * nothing and may be asked in any state. Thread-safe; never blocks.
 */
final class OffsetAdmin {

    /** The audit event type of a moved position. */
    static final String OFFSET_RESET = "OFFSET_RESET";

    private final ClusterView cluster;
    private final ListenerStateStore states;
    private final Function<String, Future<Map<String, String>>> configOf;
    /** Every shard of the listener's streams now: a reset after a change of the shard count moves them all. */
    private final ListenerShapes shapes;
    private final PositionScripts scripts;
    private final RedisAuditLog audit;

    OffsetAdmin(ClusterView cluster, RedisClient redis, ListenerStateStore states,
                Function<String, Future<Map<String, String>>> configOf, ListenerShapes shapes) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.states = Objects.requireNonNull(states, "states");
        this.configOf = Objects.requireNonNull(configOf, "configOf");
        this.shapes = Objects.requireNonNull(shapes, "shapes");
        this.scripts = new PositionScripts(redis);
        this.audit = new RedisAuditLog(redis, new MetadataKeys(cluster.clusterName()));
    }

    /** The group's position on every shard of {@code listener}. */
    Future<ListenerOffsets> offsets(String listener) {
        return configOf.apply(listener).compose(config -> shapes.of(listener, config).compose(shape ->
                Chunked.map(shape.shards(), Chunked.POOL_CHUNK, s -> scripts.read(shape.group(), s)
                        .map(r -> toOffset(s, r))).map(read -> new ListenerOffsets(listener, shape.group(),
                                startFrom(config), read))));
    }

    /** Moves the shards named in {@code moves} (a {@code null} shard: every shard). */
    Future<OffsetsAltered> alter(String listener, List<ShardMove> moves, boolean dryRun, String how) {
        return configOf.apply(listener).compose(config -> shapes.of(listener, config)).compose(shape -> {
            Map<ShardId, ShardPosition> plan = plan(listener, shape, moves);
            Future<Void> allowed = dryRun ? Future.succeededFuture() : throwIfRunning(listener).compose(v ->
                    shapes.requireStable(shape, "the positions of listener '" + listener + "'"));
            return allowed.compose(v -> apply(shape.group(), plan, dryRun, how)).map(changes ->
                    new OffsetsAltered(dryRun ? "Dry run: nothing was changed; these are the moves that would be made"
                            : "The offsets for this listener have been altered successfully", dryRun, changes));
        });
    }

    /** Moves every shard back to the listener's {@code start.from}. */
    Future<OffsetsAltered> reset(String listener, boolean dryRun) {
        return configOf.apply(listener).compose(config -> {
            String from = startFrom(config);
            return alter(listener, List.of(new ShardMove(null, ShardPosition.parse(from, "start.from"))), dryRun,
                    "reset to start.from=" + from);
        }).map(altered -> altered.dryRun() ? altered : new OffsetsAltered(
                "The offsets for this listener have been reset successfully", false, altered.changes()));
    }

    private static Map<ShardId, ShardPosition> plan(String listener, ListenerShape shape, List<ShardMove> moves) {
        Map<ShardId, ShardPosition> plan = new LinkedHashMap<>();
        for (ShardMove m : moves) {
            if (m.shard() == null) {
                shape.shards().forEach(s -> plan.put(s, m.position()));
                continue;
            }
            if (!shape.has(m.shard())) {
                throw ControlPlaneException.notFound("listener '" + listener + "' has no shard " + m.shard().stream()
                        + ":" + m.shard().index() + " (its shards: " + shape.shards().stream()
                        .map(s -> s.stream() + ":" + s.index()).toList() + ")");
            }
            if (plan.put(m.shard(), m.position()) != null) {
                throw ControlPlaneException.badRequest("shards: " + m.shard().stream() + ":" + m.shard().index()
                        + " is named twice");
            }
        }
        return plan;
    }

    private Future<Void> throwIfRunning(String listener) {
        return states.targetState(listener).compose(target -> {
            if (target != TargetState.STOPPED) {
                return Future.failedFuture(ControlPlaneException.conflict("listener '" + listener + "' is " + target
                        + "; its positions can be changed only while it is STOPPED (as Kafka Connect's offsets): stop it"
                        + " first with PUT /listeners/" + listener + "/stop (bin/shardline listeners stop " + listener
                        + ")"));
            }
            return cluster.members(listener).compose(report -> {
                List<String> live = report.members().stream().map(MemberStatus::id).sorted().toList();
                if (!live.isEmpty() || !report.unanswered().isEmpty()) {
                    return Future.failedFuture(ControlPlaneException.conflict("listener '" + listener + "' is STOPPED"
                            + " but " + (live.isEmpty() ? "workers " + report.unanswered() + " did not answer whether "
                            + "its members stopped" : "its members " + live + " have not left yet") + "; try again"));
                }
                return Future.succeededFuture();
            });
        });
    }

    private Future<List<OffsetChange>> apply(String group, Map<ShardId, ShardPosition> plan, boolean dryRun,
                                             String how) {
        return Chunked.map(new ArrayList<>(plan.entrySet()), Chunked.POOL_CHUNK, move -> {
            ShardId shard = move.getKey();
            ShardPosition position = move.getValue();
            return scripts.move(group, shard, position, !dryRun).compose(moved -> {
                OffsetChange change = new OffsetChange(shard.stream(), shard.index(), position.text(),
                        moved.oldId().isEmpty() ? null : moved.oldId(), moved.newId(), moved.pendingDropped());
                return dryRun ? Future.succeededFuture(change)
                        : audit.append(group, event(change, how)).map(id -> change);
            });
        });
    }

    private static JsonObject event(OffsetChange change, String how) {
        JsonObject o = new JsonObject().put("type", OFFSET_RESET).put("shard", change.stream() + ":" + change.shard())
                .put("group_epoch", 0).put("assignment_epoch", 0).put("member_epoch", -1)
                .put("reason", how + ": position '" + change.position() + "', " + change.pendingDropped()
                        + " pending entries dropped")
                .put("after", change.after());
        if (change.before() != null) {
            o.put("before", change.before());
        }
        return o;
    }

    private static ShardOffset toOffset(ShardId shard, PositionScripts.Read r) {
        if (!r.found()) {
            return new ShardOffset(shard.stream(), shard.index(), null, null, 0, null, null);
        }
        String oldest = r.oldestPendingId().isEmpty() ? null : r.oldestPendingId();
        Long age = oldest == null ? null : Math.max(0, r.nowMs() - Long.parseLong(oldest.substring(0, oldest.indexOf('-'))));
        return new ShardOffset(shard.stream(), shard.index(), r.lastDeliveredId(), r.lag() < 0 ? null : r.lag(),
                r.pending(), oldest, age);
    }

    private static String startFrom(Map<String, String> config) {
        return config.getOrDefault("start.from", "latest").trim();
    }
}
