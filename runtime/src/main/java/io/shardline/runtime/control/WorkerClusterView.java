package io.shardline.runtime.control;

import io.shardline.coordinator.protocol.ErrorCode;
import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.coordinator.CoordinatorWire;
import io.shardline.runtime.coordinator.GroupAdminWire;
import io.shardline.runtime.coordinator.ReadModelWire;
import io.shardline.runtime.listener.ListenerDefinition;
import io.shardline.runtime.metrics.ListenerHistory;
import io.shardline.runtime.rest.entity.GroupView;
import io.shardline.runtime.rest.entity.HistoryPoint;
import io.shardline.runtime.rest.entity.WorkerInfo;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The {@link ClusterView} of a running {@link io.shardline.runtime.worker.Worker}, cluster-wide as Kafka
 * Connect's REST layer is: live workers and the leader come from the Hazelcast view; members, listeners and
 * restarts are asked of every live worker over the clustered event bus ({@link ControlWire}, each request
 * with a timeout; a worker that does not answer in time is reported, not fatal); the coordinator's read model
 * is asked of the leader's coordinator endpoint ({@link ReadModelWire}), so every worker answers
 * {@code /groups/{group}}. Thread-safe; never blocks.
 */
public final class WorkerClusterView implements ClusterView {

    private final Vertx vertx;
    private final String clusterName;
    private final String workerId;
    private final Supplier<LeaderView> view;
    private final Map<String, Map<String, String>> fileListeners;
    private final long requestTimeoutMs;

    /**
     * A view.
     *
     * @param view the current Hazelcast view
     * @param definitions the listeners loaded from files
     * @param requestTimeoutMs how long to wait for another worker's answer
     */
    public WorkerClusterView(Vertx vertx, String clusterName, String workerId, Supplier<LeaderView> view,
                             List<ListenerDefinition> definitions, long requestTimeoutMs) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.clusterName = Objects.requireNonNull(clusterName, "clusterName");
        this.workerId = Objects.requireNonNull(workerId, "workerId");
        this.view = Objects.requireNonNull(view, "view");
        Map<String, Map<String, String>> files = new TreeMap<>();
        for (ListenerDefinition d : definitions) {
            files.put(d.name(), d.rawConfig());
        }
        this.fileListeners = Collections.unmodifiableMap(files);
        this.requestTimeoutMs = requestTimeoutMs;
    }

    @Override
    public String clusterName() {
        return clusterName;
    }

    @Override
    public String workerId() {
        return workerId;
    }

    @Override
    public Optional<String> leaderId() {
        return Optional.of(view.get().leader().workerId());
    }

    @Override
    public boolean joined() {
        return true;
    }

    @Override
    public Future<List<WorkerInfo>> workers() {
        LeaderView current = view.get();
        List<Future<WorkerInfo>> answers = new ArrayList<>();
        for (ClusterMember m : current.members()) {
            boolean leader = m.nodeId().equals(current.leader().nodeId());
            answers.add(ask(m.workerId(), ControlWire.membersRequest(null))
                    .map(reply -> new WorkerInfo(m.workerId(), leader, ControlWire.strings(reply, "listeners"),
                            ControlWire.members(reply).stream().map(s -> s.id()).sorted().toList(),
                            reply.getString(ControlWire.VERSION), reply.getLong(ControlWire.UPTIME_MS), null))
                    .otherwise(e -> WorkerInfo.unanswered(m.workerId(), leader, e.getMessage())));
        }
        return Future.join(answers).map(done -> {
            List<WorkerInfo> out = new ArrayList<>();
            for (int i = 0; i < answers.size(); i++) {
                out.add(done.resultAt(i));
            }
            return out;
        });
    }

    @Override
    public Map<String, Map<String, String>> fileListeners() {
        return fileListeners;
    }

    @Override
    public Future<MemberReport> members(String listener) {
        List<ClusterMember> live = view.get().members();
        List<Future<JsonObject>> answers = live.stream()
                .map(m -> ask(m.workerId(), ControlWire.membersRequest(listener)))
                .toList();
        return Future.join(answers).otherwiseEmpty().map(ignored -> {
            List<io.shardline.runtime.rest.entity.MemberStatus> members = new ArrayList<>();
            List<String> unanswered = new ArrayList<>();
            for (int i = 0; i < live.size(); i++) {
                Future<JsonObject> answer = answers.get(i);
                if (answer.succeeded()) {
                    members.addAll(ControlWire.members(answer.result()));
                } else {
                    unanswered.add(live.get(i).workerId());
                }
            }
            return new MemberReport(members, unanswered);
        });
    }

    @Override
    public Future<HistoryReport> history(String listener) {
        List<ClusterMember> live = view.get().members();
        List<Future<JsonObject>> answers = live.stream()
                .map(m -> ask(m.workerId(), ControlWire.historyRequest(listener)))
                .toList();
        return Future.join(answers).otherwiseEmpty().map(ignored -> {
            List<List<HistoryPoint>> shares = new ArrayList<>();
            List<String> unanswered = new ArrayList<>();
            for (int i = 0; i < live.size(); i++) {
                Future<JsonObject> answer = answers.get(i);
                if (answer.succeeded()) {
                    shares.add(ControlWire.points(answer.result()));
                } else {
                    unanswered.add(live.get(i).workerId());
                }
            }
            return new HistoryReport(ListenerHistory.sum(shares), unanswered);
        });
    }

    @Override
    public Future<Optional<GroupView>> group(String group) {
        return askLeader(ReadModelWire.describeRequest(group))
                .map(reply -> reply.map(r -> r.getJsonObject("group").mapTo(GroupView.class)));
    }

    @Override
    public Future<List<HostedGroup>> hostedGroups() {
        return askLeader(GroupAdminWire.listRequest()).map(reply -> reply.map(HostedGroup::listFromJson)
                .orElse(List.of()));
    }

    @Override
    public Future<HostedGroup.Deletion> deleteHostedGroup(String group) {
        return askLeader(GroupAdminWire.deleteRequest(group)).map(reply -> reply
                .map(HostedGroup.Deletion::fromJson)
                .orElse(new HostedGroup.Deletion("NOT_FOUND", List.of())));
    }

    @Override
    public Future<Boolean> reshardHostedGroup(String group, String stream, int shards, boolean rollback) {
        return askLeader(GroupAdminWire.reshardRequest(group, stream, shards, rollback)).compose(reply -> reply
                .map(r -> Future.succeededFuture(r.getBoolean("changed", false)))
                .orElseGet(() -> Future.failedFuture(new IllegalStateException("no leader answered the change of "
                        + "group '" + group + "''s shard set"))));
    }

    @Override
    public Future<List<String>> setLogLevelEverywhere(String logger, String level) {
        List<ClusterMember> live = view.get().members();
        List<Future<JsonObject>> answers = live.stream()
                .map(m -> ask(m.workerId(), ControlWire.logLevelRequest(logger, level)))
                .toList();
        return Future.join(answers).otherwiseEmpty().compose(ignored -> {
            List<String> applied = new ArrayList<>();
            List<String> failed = new ArrayList<>();
            for (int i = 0; i < live.size(); i++) {
                if (answers.get(i).succeeded()) {
                    applied.add(live.get(i).workerId());
                } else {
                    failed.add(live.get(i).workerId() + ": " + answers.get(i).cause().getMessage());
                }
            }
            if (!failed.isEmpty()) {
                return Future.failedFuture(new ControlPlaneException(500, "log level of " + logger + " set on "
                        + applied + " but not on " + String.join("; ", failed)));
            }
            return Future.succeededFuture(applied.stream().sorted().toList());
        });
    }

    @Override
    public Future<List<String>> restart(String listener, boolean includeMembers, boolean onlyFailed) {
        List<ClusterMember> live = view.get().members();
        List<Future<JsonObject>> answers = live.stream()
                .map(m -> ask(m.workerId(), ControlWire.restartRequest(listener, onlyFailed)))
                .toList();
        return Future.join(answers).otherwiseEmpty().compose(ignored -> {
            List<String> restarting = new ArrayList<>();
            List<String> failed = new ArrayList<>();
            for (int i = 0; i < live.size(); i++) {
                Future<JsonObject> answer = answers.get(i);
                if (answer.succeeded()) {
                    restarting.addAll(ControlWire.strings(answer.result(), "restarting"));
                } else {
                    failed.add(live.get(i).workerId() + ": " + answer.cause().getMessage());
                }
            }
            if (!failed.isEmpty() && restarting.isEmpty()) {
                return Future.failedFuture(new ControlPlaneException(500, "restart of listener '" + listener
                        + "' failed on " + String.join("; ", failed)));
            }
            return Future.succeededFuture(restarting.stream().sorted().toList());
        });
    }

    @Override
    public Future<List<String>> restartMember(String listener, String memberId, String workerId) {
        return ask(workerId, ControlWire.restartMemberRequest(listener, memberId))
                .map(answer -> ControlWire.strings(answer, "restarting"))
                .recover(e -> Future.failedFuture(new ControlPlaneException(500, "restart of member '" + memberId
                        + "' of listener '" + listener + "' failed on worker " + workerId + ": " + e.getMessage())));
    }

    @Override
    public void refresh() {
        vertx.eventBus().publish(ControlWire.broadcastAddress(clusterName), ControlWire.refresh());
    }

    private Future<JsonObject> ask(String worker, JsonObject request) {
        return vertx.eventBus().<JsonObject>request(ControlWire.address(clusterName, worker), request,
                        new DeliveryOptions().setSendTimeout(requestTimeoutMs))
                .map(reply -> reply.body())
                .recover(e -> Future.failedFuture(new IllegalStateException("worker " + worker
                        + " did not answer within " + requestTimeoutMs + " ms: " + e.getMessage(), e)));
    }

    /**
     * The leader's answer, empty for an unknown group; 409 while the leader is changing (as Connect). Asks the view's
     * leader, then once the worker it names as holding the leader epoch ({@link CoordinatorWire#COORDINATOR_HINT}):
     * after a freeze the view's oldest worker may no longer lead.
     */
    private Future<Optional<JsonObject>> askLeader(JsonObject request) {
        return askLeader(request, view.get().leader().workerId(), true);
    }

    private Future<Optional<JsonObject>> askLeader(JsonObject request, String leader, boolean followHint) {
        return vertx.eventBus().<JsonObject>request(CoordinatorWire.address(clusterName, leader), request,
                        new DeliveryOptions().setSendTimeout(requestTimeoutMs))
                .recover(e -> Future.failedFuture(ControlPlaneException.conflict("cannot complete the request: the "
                        + "leader " + leader + " did not answer within " + requestTimeoutMs + " ms (" + e.getMessage()
                        + "); a leader change may be under way, try again")))
                .compose(reply -> {
                    JsonObject body = reply.body();
                    int error = body.getInteger("error", ErrorCode.NONE.code());
                    if (error == ErrorCode.NONE.code()) {
                        return Future.succeededFuture(Optional.of(body));
                    }
                    if (error == ErrorCode.GROUP_NOT_FOUND.code()) {
                        return Future.succeededFuture(Optional.empty());
                    }
                    String hint = body.getString(CoordinatorWire.COORDINATOR_HINT);
                    if (followHint && error == ErrorCode.NOT_COORDINATOR.code() && hint != null && !hint.equals(leader)) {
                        return askLeader(request, hint, false);
                    }
                    return Future.failedFuture(ControlPlaneException.conflict("cannot complete the request momentarily: "
                            + body.getString("errorMessage", "the coordinator is not ready")
                            + " (a leader change may be under way, try again)"));
                });
    }
}
