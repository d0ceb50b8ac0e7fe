package io.shardline.runtime.coordinator;

import io.shardline.coordinator.CoordinatorResult;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.GroupDeletion;
import io.shardline.coordinator.protocol.ErrorCode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The event-bus wire of the operators' group requests to the leader's coordinator: {@link #LIST} (every group
 * the coordinator hosts, with its streams and member count; nothing is written) and {@link #DELETE} (a group with
 * no member is forgotten through its tombstone record, committed like any decision before the answer). Stateless.
 */
public final class GroupAdminWire {

    /** Operation: every hosted group. */
    public static final String LIST = "listGroups";
    /** Operation: delete one group. */
    public static final String DELETE = "deleteGroup";

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

    /** {@code {"error":0,"groups":[{"group","streams":{name:shards},"members"}]}}, sorted by group. */
    static JsonObject listAnswer(GroupCoordinator coordinator) {
        JsonArray groups = new JsonArray();
        for (String id : coordinator.groupIds()) {
            coordinator.group(id).ifPresent(g -> {
                JsonObject streams = new JsonObject();
                g.config().streams().forEach(streams::put);
                groups.add(new JsonObject().put("group", id).put("streams", streams)
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
