package io.shardline.runtime.coordinator;

import io.shardline.coordinator.CoordinatorResult;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.GroupDeletion;
import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.coordinator.record.ChangeReason;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The event-bus wire of the operators' group requests to the leader's coordinator: {@link #LIST} (every group
 * the coordinator hosts, with its streams and member count; nothing is written) and {@link #DELETE} (a group with
 * no member is forgotten through its tombstone record, committed like any decision before the answer) and
 * {@link #RESHARD} (the leader's resharding task changes a group's managed shard set; committed before the answer).
 * Stateless.
 */
public final class GroupAdminWire {

    /** Operation: every hosted group. */
    public static final String LIST = "listGroups";
    /** Operation: delete one group. */
    public static final String DELETE = "deleteGroup";
    /** Operation: change the shard count of a stream in a group's managed shard set (a resharding's step). */
    public static final String RESHARD = "reshardGroup";

    private GroupAdminWire() {
    }

    /** The request for every group. */
    public static JsonObject listRequest() {
        return new JsonObject().put(CoordinatorWire.OP, LIST);
    }

    /** The request to delete {@code groupId}. */
    public static JsonObject deleteRequest(String groupId) {
        return new JsonObject().put(CoordinatorWire.OP, DELETE).put("groupId", groupId);
    }

    /**
     * The request to set {@code stream}'s shard count in group {@code groupId}'s shard set to {@code shards}
     * ({@code rollback}: the step of a rollback).
     */
    public static JsonObject reshardRequest(String groupId, String stream, int shards, boolean rollback) {
        return new JsonObject().put(CoordinatorWire.OP, RESHARD).put("groupId", groupId).put("stream", stream)
                .put("shards", shards).put("rollback", rollback);
    }

    /** The decision on a {@link #RESHARD} request (the host commits its records before answering). */
    static CoordinatorResult<Boolean> reshard(JsonObject body, GroupCoordinator coordinator, long nowMs) {
        return coordinator.reshardGroup(nowMs, body.getString("groupId", ""), body.getString("stream", ""),
                body.getInteger("shards", 0), body.getBoolean("rollback", false) ? ChangeReason.RESHARD_ROLLBACK
                        : ChangeReason.SHARD_SET_CHANGED);
    }

    /** {@code {"error":0,"changed":true|false}}. */
    static JsonObject reshardAnswer(boolean changed) {
        return new JsonObject().put("error", ErrorCode.NONE.code()).put("changed", changed);
    }

    /**
     * {@code {"error":0,"groups":[{"group","streams":{name:shards},"owned":{name:shards},"members"}]}}, sorted by
     * group; {@code owned}: per stream, how many of its managed shards a member holds as assigned (not revoking),
     * which is every one of them once a rebalance settled.
     */
    static JsonObject listAnswer(GroupCoordinator coordinator) {
        JsonArray groups = new JsonArray();
        for (String id : coordinator.groupIds()) {
            coordinator.group(id).ifPresent(g -> {
                JsonObject streams = new JsonObject();
                JsonObject owned = new JsonObject();
                g.config().streams().forEach((stream, shards) -> {
                    streams.put(stream, shards);
                    owned.put(stream, g.members().values().stream().mapToLong(m -> m.assigned().keySet().stream()
                            .filter(s -> s.stream().equals(stream) && s.index() < shards).count()).sum());
                });
                groups.add(new JsonObject().put("group", id).put("streams", streams).put("owned", owned)
                        .put("members", g.members().size()));
            });
        }
        return new JsonObject().put("error", ErrorCode.NONE.code()).put("groups", groups);
    }

    /** The decision on a {@link #DELETE} request (the host commits its records before answering). */
    static CoordinatorResult<GroupDeletion> delete(JsonObject body, GroupCoordinator coordinator) {
        return coordinator.deleteGroup(body.getString("groupId", ""));
    }

    /** {@code {"error":0,"outcome":"DELETED|NOT_FOUND|HAS_MEMBERS","members":[...]}}. */
    static JsonObject deleteAnswer(GroupDeletion deletion) {
        return new JsonObject().put("error", ErrorCode.NONE.code()).put("outcome", deletion.outcome().name())
                .put("members", new JsonArray(deletion.members()));
    }
}
