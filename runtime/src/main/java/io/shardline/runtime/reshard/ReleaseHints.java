package io.shardline.runtime.reshard;

import io.shardline.api.handler.ShardId;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The hints that let a barrier pass without waiting for a poll (docs/protocol.md section 8b, "The barrier"), published
 * on the cluster's event bus, no answer:
 * <ul>
 *   <li>leader to members, {@code released}: barriers of a stream were released for some groups; their shards waiting
 *       at a cutover poll their routing hash at once;</li>
 *   <li>leader to members, {@code watch}: the parents a group's waiting shards wait for, with their cutovers; the
 *       member owning one reports when its acknowledgement reaches the cutover;</li>
 *   <li>member to leader, {@code drained}: that report; the leader's resharding task runs its next pass at once.</li>
 * </ul>
 * Only hints: Redis decides (the routing hash bounds every read; the leader observes every position before a
 * release), and a lost hint costs one poll interval. Thread-safe.
 */
public final class ReleaseHints {

    private final Vertx vertx;
    private final String members;
    private final String leader;

    /** Hints of the cluster {@code clusterName}. */
    public ReleaseHints(Vertx vertx, String clusterName) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.members = address(clusterName);
        this.leader = members + ".drained";
    }

    /** The event-bus address every worker's members listen on. */
    static String address(String clusterName) {
        return "shardline." + clusterName + ".reshard.released";
    }

    /** Tells every worker that barriers of {@code stream} were released for {@code groups}. */
    void publish(String stream, Set<String> groups) {
        vertx.eventBus().publish(members, new JsonObject().put("kind", "released").put("stream", stream)
                .put("groups", new JsonArray(List.copyOf(groups))));
    }

    /** Tells every worker which parents of {@code stream} {@code group} waits for, shard index to cutover. */
    void watch(String stream, String group, Map<Integer, String> cutovers) {
        JsonObject shards = new JsonObject();
        cutovers.forEach((i, c) -> shards.put(Integer.toString(i), c));
        vertx.eventBus().publish(members, new JsonObject().put("kind", "watch").put("stream", stream)
                .put("group", group).put("cutovers", shards));
    }

    /** Tells the leader that {@code group} acknowledged {@code shard} up to the cutover it was asked to watch. */
    public void drained(ShardId shard, String group) {
        vertx.eventBus().publish(leader, new JsonObject().put("kind", "drained").put("stream", shard.stream())
                .put("shard", shard.index()).put("group", group));
    }

    /** Runs {@code nudge} on every drained report (the leader's task). */
    MessageConsumer<JsonObject> onDrained(Runnable nudge) {
        return vertx.eventBus().consumer(leader, message -> nudge.run());
    }

    /** What a worker does with the hints to its members (it hands them to its members of the groups named). */
    public interface Members {

        /** Barriers of {@code stream} were released for {@code groups}. */
        void released(String stream, Set<String> groups);

        /** {@code group} waits for its parents of {@code stream} to be acknowledged to these cutovers (by index). */
        void watch(String stream, String group, Map<Integer, String> cutovers);
    }

    /** Hands every {@code released} and {@code watch} hint to {@code members}. */
    public MessageConsumer<JsonObject> listen(Members to) {
        return vertx.eventBus().consumer(members, message -> {
            JsonObject body = message.body();
            String stream = body.getString("stream");
            if ("watch".equals(body.getString("kind"))) {
                Map<Integer, String> cutovers = new TreeMap<>();
                body.getJsonObject("cutovers", new JsonObject())
                        .forEach(e -> cutovers.put(Integer.parseInt(e.getKey()), e.getValue().toString()));
                to.watch(stream, body.getString("group"), cutovers);
            } else {
                Set<String> groups = new TreeSet<>();
                body.getJsonArray("groups", new JsonArray()).forEach(g -> groups.add(g.toString()));
                to.released(stream, groups);
            }
        });
    }
}
