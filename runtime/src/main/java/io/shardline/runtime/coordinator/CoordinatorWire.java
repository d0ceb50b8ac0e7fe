package io.shardline.runtime.coordinator;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.RebalanceProtocol;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.protocol.LeaveRequest;
import io.shardline.coordinator.protocol.LeaveResponse;
import io.shardline.coordinator.protocol.RevokeReport;
import io.shardline.coordinator.protocol.RevokeState;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The event-bus wire format of the group protocol: JSON objects with an {@code op} field
 * ({@code heartbeat}, {@code leave}, {@code configure}). Shard ids travel as their key
 * ({@code {orders:3}}), error codes as their stable number. Stateless.
 */
public final class CoordinatorWire {

    /** Event-bus message field naming the operation. */
    public static final String OP = "op";
    public static final String HEARTBEAT = "heartbeat";
    public static final String LEAVE = "leave";
    public static final String CONFIGURE = "configure";
    /** A stopping leader asks its successor to claim the leader epoch at once (graceful hand-over). */
    public static final String TAKE_OVER = "takeOver";
    /**
     * Every coordinator host asks every other worker's host once when it enters the view, answered at once: so the
     * event-bus route to each worker (its address's registrations, its node's address, a connection both ways) is
     * resolved while the cluster is healthy, not when a member first needs it with a frozen worker holding the
     * Hazelcast partition those lookups read.
     */
    public static final String PING = "ping";
    /** Field of a {@code NOT_COORDINATOR} answer naming the worker that coordinates now, when the host knows it. */
    public static final String COORDINATOR_HINT = "coordinator";
    /**
     * Field of a {@code NOT_COORDINATOR} answer: how long the worker {@link #COORDINATOR_HINT} names had written
     * nothing to the group log, as the answering host last read it, when it knows (a member tells a frozen or killed
     * leader, which its successor is about to replace, from a live one that left one request unanswered).
     */
    public static final String COORDINATOR_SILENT_MS = "coordinatorSilentMs";

    private CoordinatorWire() {
    }

    /**
     * The {@code NOT_COORDINATOR} answer to a request of operation {@code op}: a heartbeat response for a heartbeat,
     * else an error object; with {@link #COORDINATOR_HINT} naming the worker to ask instead when {@code hint} is set,
     * and {@link #COORDINATOR_SILENT_MS} when {@code hintSilentMs} is known (not negative).
     */
    public static JsonObject notCoordinator(String op, JsonObject body, String text, String hint, long hintSilentMs,
                                            int heartbeatIntervalMs, int sessionTimeoutMs) {
        JsonObject answer = HEARTBEAT.equals(op)
                ? toJson(HeartbeatResponse.error(ErrorCode.NOT_COORDINATOR, text, body.getString("memberId", ""),
                        heartbeatIntervalMs, sessionTimeoutMs))
                : new JsonObject().put("error", ErrorCode.NOT_COORDINATOR.code()).put("errorMessage", text);
        if (hint == null) {
            return answer;
        }
        answer.put(COORDINATOR_HINT, hint);
        return hintSilentMs < 0 ? answer : answer.put(COORDINATOR_SILENT_MS, hintSilentMs);
    }

    /** The event-bus address of a worker's coordinator endpoint. */
    public static String address(String clusterName, String workerId) {
        return "shardline." + clusterName + ".coordinator." + workerId;
    }

    /** A heartbeat request; {@code owned} is left out of a delta request ({@link HeartbeatRequest#ownedUnchanged}). */
    public static JsonObject toJson(HeartbeatRequest r) {
        JsonArray revoking = new JsonArray();
        r.revoking().forEach(rr -> revoking.add(new JsonObject().put("shard", rr.shard().key()).put("state", rr.state().name())));
        JsonObject j = new JsonObject().put(OP, HEARTBEAT)
                .put("groupId", r.groupId()).put("memberId", r.memberId()).put("memberEpoch", r.memberEpoch())
                .put("instanceId", r.instanceId().orElse(null)).put("rack", r.rack().orElse(null))
                .put("subscriptions", new JsonArray(new ArrayList<>(r.subscriptions())))
                .put("revoking", revoking)
                .put("assignmentEpoch", r.assignmentEpoch()).put("weight", r.weight());
        return r.ownedUnchanged() ? j : j.put("owned", shards(r.owned()));
    }

    public static HeartbeatRequest heartbeatRequest(JsonObject j) {
        List<RevokeReport> revoking = new ArrayList<>();
        for (Object o : j.getJsonArray("revoking", new JsonArray())) {
            JsonObject rr = (JsonObject) o;
            revoking.add(new RevokeReport(ShardId.fromKey(rr.getString("shard")), RevokeState.valueOf(rr.getString("state"))));
        }
        TreeSet<String> subscriptions = new TreeSet<>();
        j.getJsonArray("subscriptions", new JsonArray()).forEach(s -> subscriptions.add((String) s));
        int epoch = j.getInteger("memberEpoch");
        // No "owned" field: a delta request (the same owned shards as the last answered request); a join lists none.
        boolean unchanged = !j.containsKey("owned") && epoch != HeartbeatRequest.JOIN_EPOCH;
        return new HeartbeatRequest(j.getString("groupId"), j.getString("memberId"), epoch,
                Optional.ofNullable(j.getString("instanceId")), Optional.ofNullable(j.getString("rack")),
                subscriptions, shardSet(j.getJsonArray("owned")), revoking, j.getInteger("assignmentEpoch"),
                j.getInteger("weight", 1), unchanged);
    }

    /** A heartbeat answer; {@code assigned} and {@code pending} are left out of a delta answer. */
    public static JsonObject toJson(HeartbeatResponse r) {
        JsonObject j = new JsonObject().put("error", r.error().code()).put("errorMessage", r.errorMessage())
                .put("memberId", r.memberId()).put("memberEpoch", r.memberEpoch())
                .put("assignmentEpoch", r.assignmentEpoch()).put("heartbeatIntervalMs", r.heartbeatIntervalMs())
                .put("sessionTimeoutMs", r.sessionTimeoutMs());
        if (r.assignmentUnchanged()) {
            return j;
        }
        JsonObject assigned = new JsonObject();
        r.assigned().forEach((s, e) -> assigned.put(s.key(), e));
        return j.put("assigned", assigned).put("pending", shards(r.pending()));
    }

    public static HeartbeatResponse heartbeatResponse(JsonObject j) {
        ErrorCode error = ErrorCode.fromCode(j.getInteger("error"));
        // No "assigned" field in an answer without error: a delta answer (the assignment the member applied last).
        boolean unchanged = error == ErrorCode.NONE && !j.containsKey("assigned");
        TreeMap<ShardId, Integer> assigned = new TreeMap<>();
        j.getJsonObject("assigned", new JsonObject()).forEach(e -> assigned.put(ShardId.fromKey(e.getKey()), ((Number) e.getValue()).intValue()));
        return new HeartbeatResponse(error, j.getString("errorMessage"),
                j.getString("memberId"), j.getInteger("memberEpoch"), j.getInteger("assignmentEpoch"), assigned,
                shardSet(j.getJsonArray("pending")), j.getInteger("heartbeatIntervalMs"), j.getInteger("sessionTimeoutMs"),
                unchanged);
    }

    public static JsonObject toJson(LeaveRequest r) {
        return new JsonObject().put(OP, LEAVE).put("groupId", r.groupId()).put("memberId", r.memberId())
                .put("memberEpoch", r.memberEpoch());
    }

    public static LeaveRequest leaveRequest(JsonObject j) {
        return new LeaveRequest(j.getString("groupId"), j.getString("memberId"), j.getInteger("memberEpoch"));
    }

    public static JsonObject toJson(LeaveResponse r) {
        return new JsonObject().put("error", r.error().code()).put("errorMessage", r.errorMessage());
    }

    public static LeaveResponse leaveResponse(JsonObject j) {
        return new LeaveResponse(ErrorCode.fromCode(j.getInteger("error")), j.getString("errorMessage"));
    }

    public static JsonObject toJson(GroupConfig c) {
        JsonObject streams = new JsonObject();
        c.streams().forEach(streams::put);
        return new JsonObject().put(OP, CONFIGURE).put("groupId", c.groupId()).put("streams", streams)
                .put("assignor", c.assignor()).put("protocol", c.protocol().name())
                .put("sessionTimeoutMs", c.sessionTimeoutMs()).put("heartbeatIntervalMs", c.heartbeatIntervalMs())
                .put("rebalanceTimeoutMs", c.rebalanceTimeoutMs()).put("racks", racks(c))
                .put("revision", c.revision());
    }

    private static JsonObject racks(GroupConfig c) {
        JsonObject out = new JsonObject();
        c.racks().forEach((stream, shards) -> {
            JsonArray list = new JsonArray();
            shards.forEach(zones -> list.add(new JsonArray(new ArrayList<>(zones))));
            out.put(stream, list);
        });
        return out;
    }

    private static SortedMap<String, List<Set<String>>> racks(JsonObject j) {
        TreeMap<String, List<Set<String>>> out = new TreeMap<>();
        if (j != null) {
            j.forEach(e -> {
                List<Set<String>> shards = new ArrayList<>();
                ((JsonArray) e.getValue()).forEach(z -> {
                    Set<String> zones = new TreeSet<>();
                    ((JsonArray) z).forEach(x -> zones.add(String.valueOf(x)));
                    shards.add(zones);
                });
                out.put(e.getKey(), shards);
            });
        }
        return out;
    }

    public static GroupConfig groupConfig(JsonObject j) {
        TreeMap<String, Integer> streams = new TreeMap<>();
        j.getJsonObject("streams", new JsonObject()).forEach(e -> streams.put(e.getKey(), ((Number) e.getValue()).intValue()));
        return new GroupConfig(j.getString("groupId"), streams, j.getString("assignor"),
                RebalanceProtocol.valueOf(j.getString("protocol", RebalanceProtocol.COOPERATIVE.name())),
                j.getInteger("sessionTimeoutMs"), j.getInteger("heartbeatIntervalMs"),
                j.getInteger("rebalanceTimeoutMs", 0), racks(j.getJsonObject("racks")), j.getLong("revision", 0L));
    }

    private static JsonArray shards(java.util.Collection<ShardId> shards) {
        JsonArray a = new JsonArray();
        shards.forEach(s -> a.add(s.key()));
        return a;
    }

    private static TreeSet<ShardId> shardSet(JsonArray a) {
        TreeSet<ShardId> out = new TreeSet<>();
        if (a != null) {
            a.forEach(s -> out.add(ShardId.fromKey((String) s)));
        }
        return out;
    }
}
