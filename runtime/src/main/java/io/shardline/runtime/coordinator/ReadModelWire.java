package io.shardline.runtime.coordinator;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.AuditEvent;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.group.GroupView;
import io.shardline.coordinator.group.MemberView;
import io.shardline.coordinator.protocol.ErrorCode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * The event-bus format of the coordinator's read model, asked of the leader by any worker that serves
 * {@code GET /groups/{group}} or {@code /groups/{group}/audit}: requests {@code {"op":"describe","groupId"}} and
 * {@code {"op":"audit","groupId","limit"}}; answers {@code {"error":0,"group":{...}}} and
 * {@code {"error":0,"events":[...]}}, whose objects have the field names of the REST entities (snake case,
 * shards as {@code stream:index}), so the REST layer maps them without knowing the coordinator's types.
 * Stateless.
 */
public final class ReadModelWire {

    /** Operation: the read model of one group. */
    public static final String DESCRIBE = "describe";
    /** Operation: the recent audit events of one group. */
    public static final String AUDIT = "audit";

    private ReadModelWire() {
    }

    /** The request for the read model of {@code groupId}. */
    public static JsonObject describeRequest(String groupId) {
        return new JsonObject().put(CoordinatorWire.OP, DESCRIBE).put("groupId", groupId);
    }

    /** The request for the last {@code limit} audit events of {@code groupId}. */
    public static JsonObject auditRequest(String groupId, int limit) {
        return new JsonObject().put(CoordinatorWire.OP, AUDIT).put("groupId", groupId).put("limit", limit);
    }

    /**
     * The leader's answer to a read-model request ({@link #DESCRIBE} or {@link #AUDIT}): nothing is written, so no
     * guard is needed; {@code GROUP_NOT_FOUND} for a group the coordinator does not know.
     *
     * @param workers the live workers, to name the worker of each member
     */
    static JsonObject answer(String op, JsonObject body, GroupCoordinator coordinator, AuditTrail audit,
                             List<String> workers) {
        String groupId = body.getString("groupId", "");
        var described = coordinator.describe(groupId);
        if (described.isEmpty()) {
            return new JsonObject().put("error", ErrorCode.GROUP_NOT_FOUND.code())
                    .put("errorMessage", "group '" + groupId + "' is not configured");
        }
        if (AUDIT.equals(op)) {
            return new JsonObject().put("error", ErrorCode.NONE.code())
                    .put("events", toJson(audit.recent(groupId, body.getInteger("limit", 100))));
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
                    .put("pending_revocation", shards(m.revoking())));
        }
        return new JsonObject()
                .put("group", view.groupId())
                .put("group_epoch", view.groupEpoch())
                .put("assignment_epoch", view.assignmentEpoch())
                .put("assignor", view.config().assignor())
                .put("members", members);
    }

    /** Audit events as JSON, in order. */
    public static JsonArray toJson(List<AuditEvent> events) {
        JsonArray out = new JsonArray();
        for (AuditEvent e : events) {
            JsonObject o = new JsonObject()
                    .put("time_ms", e.timeMs())
                    .put("type", e.type().name())
                    .put("group_epoch", e.groupEpoch())
                    .put("assignment_epoch", e.assignmentEpoch())
                    .put("member_epoch", e.memberEpoch())
                    .put("reason", e.reason());
            if (!e.memberId().isEmpty()) {
                o.put("member_id", e.memberId());
            }
            e.shard().ifPresent(s -> o.put("shard", shard(s)));
            out.add(o);
        }
        return out;
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

    private static JsonArray shards(Collection<ShardId> shards) {
        JsonArray a = new JsonArray();
        shards.stream().sorted().forEach(s -> a.add(shard(s)));
        return a;
    }

    private static String shard(ShardId s) {
        return s.stream() + ":" + s.index();
    }
}
