package io.shardline.runtime.coordinator;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.group.GroupView;
import io.shardline.coordinator.group.MemberView;
import io.shardline.coordinator.protocol.ErrorCode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The event-bus format of the coordinator's read model, asked of the leader by any worker that serves
 * {@code GET /groups/{group}}: request {@code {"op":"describe","groupId"}}; answer {@code {"error":0,"group":{...}}},
 * whose objects have the field names of the REST entities (snake case, shards as {@code stream:index}), so the
 * REST layer maps them without knowing the coordinator's types. (The audit trail is not asked of the leader: it is
 * in Redis, {@link io.shardline.runtime.store.RedisAuditLog}.) Stateless.
 */
public final class ReadModelWire {

    /** Operation: the read model of one group. */
    public static final String DESCRIBE = "describe";

    private ReadModelWire() {
    }

    /** The request for the read model of {@code groupId}. */
    public static JsonObject describeRequest(String groupId) {
        return new JsonObject().put(CoordinatorWire.OP, DESCRIBE).put("groupId", groupId);
    }

    /**
     * The leader's answer to a {@link #DESCRIBE} request: nothing is written, so no guard is needed;
     * {@code GROUP_NOT_FOUND} for a group the coordinator does not know.
     *
     * @param workers the live workers, to name the worker of each member
     */
    static JsonObject answer(JsonObject body, GroupCoordinator coordinator, List<String> workers) {
        String groupId = body.getString("groupId", "");
        var described = coordinator.describe(groupId);
        if (described.isEmpty()) {
            return new JsonObject().put("error", ErrorCode.GROUP_NOT_FOUND.code())
                    .put("errorMessage", "group '" + groupId + "' is not configured");
        }
        return new JsonObject().put("error", ErrorCode.NONE.code()).put("group",
                toJson(described.get(), member -> workerOf(member, workers)));
    }

    /**
     * The read model as JSON.
     *
     * @param workerOf the worker hosting a member id ({@code "unknown"} when no live worker matches)
     */
    public static JsonObject toJson(GroupView view, Function<String, String> workerOf) {
        JsonArray members = new JsonArray();
        for (MemberView m : view.members()) {
            members.add(new JsonObject()
                    .put("id", m.memberId())
                    .put("worker_id", workerOf.apply(m.memberId()))
                    .put("state", m.state().name())
                    .put("member_epoch", m.memberEpoch())
                    .put("current", shards(m.assigned().keySet()))
                    .put("target", shards(m.target()))
                    .put("pending_revocation", shards(m.revoking()))
                    .put("zone", m.rack().orElse(null))
                    .put("weight", m.weight())
                    .put("instance_id", m.instanceId().orElse(null)));
        }
        JsonObject out = new JsonObject()
                .put("group", view.groupId())
                .put("group_epoch", view.groupEpoch())
                .put("assignment_epoch", view.assignmentEpoch())
                .put("assignor", view.config().assignor())
                .put("members", members)
                .put("settings", settings(view.config()));
        if (!view.config().racks().isEmpty()) {
            zones(view, out);
        }
        if (view.assignorFailure() != null) {
            out.put("assignor_error", new JsonObject().put("group_epoch", view.assignorFailure().groupEpoch())
                    .put("message", view.assignorFailure().message()));
        }
        return out;
    }

    private static JsonObject settings(io.shardline.coordinator.group.GroupConfig c) {
        JsonObject streams = new JsonObject();
        c.streams().forEach(streams::put);
        return new JsonObject().put("rebalance_protocol", c.protocol().name().toLowerCase(java.util.Locale.ROOT))
                .put("session_timeout_ms", c.sessionTimeoutMs()).put("heartbeat_interval_ms", c.heartbeatIntervalMs())
                .put("rebalance_timeout_ms", c.rebalanceTimeoutMs()).put("streams", streams)
                .put("revision", c.revision());
    }

    /**
     * The worker of a member id: the longest live worker id {@code w} such that the member id starts with
     * {@code w + "-"} (member ids are {@code <worker>-<listener>-m<i>}); {@code "unknown"} when none does.
     */
    public static String workerOf(String memberId, Collection<String> workerIds) {
        String best = null;
        for (String w : workerIds) {
            if (memberId.startsWith(w + "-") && (best == null || w.length() > best.length())) {
                best = w;
            }
        }
        return best == null ? "unknown" : best;
    }

    /** Each shard's zones and how many shards are owned by a member in one of them (zone-local). */
    private static void zones(GroupView view, JsonObject out) {
        JsonObject shardZones = new JsonObject();
        int local = 0;
        for (Map.Entry<String, List<Set<String>>> e : view.config().racks().entrySet()) {
            for (int i = 0; i < e.getValue().size(); i++) {
                Set<String> zones = e.getValue().get(i);
                shardZones.put(e.getKey() + ":" + i, new JsonArray(List.copyOf(zones)));
                for (MemberView m : view.members()) {
                    if (m.assigned().containsKey(new ShardId(e.getKey(), i)) && m.rack().isPresent()
                            && zones.contains(m.rack().get())) {
                        local++;
                    }
                }
            }
        }
        out.put("shard_zones", shardZones).put("zone_local_shards", local);
    }

    private static JsonArray shards(Collection<ShardId> shards) {
        JsonArray a = new JsonArray();
        shards.stream().sorted().forEach(s -> a.add(shard(s)));
        return a;
    }

    private static String shard(ShardId s) {
        return s.stream() + ":" + s.index();
    }
}
