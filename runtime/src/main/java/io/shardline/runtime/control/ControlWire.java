package io.shardline.runtime.control;

import io.shardline.runtime.rest.entity.HistoryPoint;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The event-bus format between workers' control planes (the clustered event bus the heartbeats use):
 * <ul>
 *   <li>to one worker, {@link #address}: {@code {"op":"members","listener":<name or null>}} answered
 *       {@code {"worker_id","version","uptime_ms","listeners":[...],"members":[MemberStatus...]}},
 *       {@code {"op":"restart","listener","onlyFailed"}} answered {@code {"restarting":[member ids]}},
 *       {@code {"op":"logLevel","logger","level"}} answered {@code {"worker_id"}} once the level is set, and
 *       {@code {"op":"history","listener"}} answered {@code {"points":[[time_ms, records/s, dead letters/s,
 *       lag]...]}} (the worker's share);</li>
 *   <li>to every worker, {@link #broadcastAddress} (publish, no answer): {@code {"op":"refresh"}} after a
 *       write to the stored listener definitions or target states, so that they apply at once rather than at
 *       the next poll.</li>
 * </ul>
 * Member statuses travel with their REST field names. Stateless.
 */
public final class ControlWire {

    /** Event-bus message field naming the operation. */
    public static final String OP = "op";
    /** Operation: the members of one listener, or of all. */
    public static final String MEMBERS = "members";
    /** Operation: restart one listener on the receiving worker. */
    public static final String RESTART = "restart";
    /** Operation: set a log level on the receiving worker ({@code {"op":"logLevel","logger","level"}}). */
    public static final String LOG_LEVEL = "logLevel";
    /** Operation: this worker's share of one listener's recent history. */
    public static final String HISTORY = "history";
    /** Members reply field: the worker's Shardline version. */
    public static final String VERSION = "version";
    /** Members reply field: how long the worker's JVM has been running, in ms. */
    public static final String UPTIME_MS = "uptime_ms";
    /** Operation (published): re-read stored definitions and target states now. */
    public static final String REFRESH = "refresh";

    private ControlWire() {
    }

    /** The control address of one worker. */
    public static String address(String clusterName, String workerId) {
        return "shardline." + clusterName + ".control." + workerId;
    }

    /** The address every worker listens on for published control messages. */
    public static String broadcastAddress(String clusterName) {
        return "shardline." + clusterName + ".control";
    }

    public static JsonObject membersRequest(String listener) {
        return new JsonObject().put(OP, MEMBERS).put("listener", listener);
    }

    public static JsonObject restartRequest(String listener, boolean onlyFailed) {
        return new JsonObject().put(OP, RESTART).put("listener", listener).put("onlyFailed", onlyFailed);
    }

    /** A restart of one member of {@code listener} on the receiving worker (answered like a restart). */
    public static JsonObject restartMemberRequest(String listener, String member) {
        return new JsonObject().put(OP, RESTART).put("listener", listener).put("member", member);
    }

    public static JsonObject historyRequest(String listener) {
        return new JsonObject().put(OP, HISTORY).put("listener", listener);
    }

    /** Points travel as arrays {@code [time_ms, records_per_second, dead_letters_per_second, lag]}. */
    public static JsonObject historyReply(List<HistoryPoint> points) {
        JsonArray out = new JsonArray();
        points.forEach(p -> out.add(new JsonArray().add(p.timeMs()).add(p.recordsPerSecond())
                .add(p.deadLettersPerSecond()).add(p.lag())));
        return new JsonObject().put("points", out);
    }

    public static List<HistoryPoint> points(JsonObject reply) {
        List<HistoryPoint> out = new ArrayList<>();
        for (Object o : reply.getJsonArray("points", new JsonArray())) {
            JsonArray p = (JsonArray) o;
            out.add(new HistoryPoint(p.getLong(0), p.getDouble(1), p.getDouble(2), p.getLong(3)));
        }
        return out;
    }

    public static JsonObject refresh() {
        return new JsonObject().put(OP, REFRESH);
    }

    public static JsonObject membersReply(String workerId, String version, long uptimeMs, List<String> listeners,
                                          List<MemberStatus> members) {
        JsonArray out = new JsonArray();
        members.forEach(m -> out.add(JsonObject.mapFrom(m)));
        return new JsonObject().put("worker_id", workerId).put(VERSION, version).put(UPTIME_MS, uptimeMs)
                .put("listeners", new JsonArray(new ArrayList<>(listeners))).put("members", out);
    }

    public static List<MemberStatus> members(JsonObject reply) {
        List<MemberStatus> out = new ArrayList<>();
        for (Object o : reply.getJsonArray("members", new JsonArray())) {
            out.add(((JsonObject) o).mapTo(MemberStatus.class));
        }
        return out;
    }

    public static List<String> strings(JsonObject reply, String field) {
        List<String> out = new ArrayList<>();
        reply.getJsonArray(field, new JsonArray()).forEach(s -> out.add((String) s));
        return out;
    }

    public static JsonObject restartReply(List<String> restarting) {
        return new JsonObject().put("restarting", new JsonArray(new ArrayList<>(restarting)));
    }

    public static JsonObject logLevelRequest(String logger, String level) {
        return new JsonObject().put(OP, LOG_LEVEL).put("logger", logger).put("level", level);
    }
}
