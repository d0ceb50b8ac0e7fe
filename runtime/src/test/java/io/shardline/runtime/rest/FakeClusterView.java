package io.shardline.runtime.rest;

import io.shardline.runtime.control.ClusterView;
import io.shardline.runtime.control.HistoryReport;
import io.shardline.runtime.control.HostedGroup;
import io.shardline.runtime.control.MemberReport;
import io.shardline.runtime.rest.entity.GroupView;
import io.shardline.runtime.rest.entity.HistoryPoint;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.WorkerInfo;
import io.vertx.core.Future;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A settable {@link ClusterView} for REST tests (stands in for the running worker). */
final class FakeClusterView implements ClusterView {

    volatile String leader = "worker-a";
    volatile boolean joined = true;
    final Map<String, Map<String, String>> fileListeners = new ConcurrentHashMap<>();
    final Map<String, List<MemberStatus>> members = new ConcurrentHashMap<>();
    final Map<String, GroupView> groups = new ConcurrentHashMap<>();
    final List<String> restarts = new CopyOnWriteArrayList<>();
    final Map<String, List<HistoryPoint>> history = new ConcurrentHashMap<>();

    private final String clusterName;

    FakeClusterView(String clusterName) {
        this.clusterName = clusterName;
    }

    @Override
    public String clusterName() {
        return clusterName;
    }

    @Override
    public String workerId() {
        return "worker-a";
    }

    @Override
    public Optional<String> leaderId() {
        return Optional.ofNullable(leader);
    }

    @Override
    public boolean joined() {
        return joined;
    }

    @Override
    public Future<List<WorkerInfo>> workers() {
        return Future.succeededFuture(List.of(
                new WorkerInfo("worker-b", "worker-b".equals(leader), List.of("orders"), List.of("worker-b-orders-m0")),
                new WorkerInfo("worker-a", "worker-a".equals(leader), List.of("orders"), List.of("worker-a-orders-m0"))));
    }

    @Override
    public Map<String, Map<String, String>> fileListeners() {
        return Map.copyOf(fileListeners);
    }

    @Override
    public Future<MemberReport> members(String listener) {
        return Future.succeededFuture(MemberReport.complete(members.getOrDefault(listener, List.of())));
    }

    @Override
    public Future<HistoryReport> history(String listener) {
        return Future.succeededFuture(new HistoryReport(history.getOrDefault(listener, List.of()), List.of()));
    }

    @Override
    public Future<List<HostedGroup>> hostedGroups() {
        return Future.succeededFuture(List.of());
    }

    @Override
    public Future<Optional<GroupView>> group(String group) {
        return Future.succeededFuture(Optional.ofNullable(groups.get(group)));
    }

    @Override
    public Future<List<String>> restart(String listener, boolean includeMembers, boolean onlyFailed) {
        restarts.add(listener + " includeMembers=" + includeMembers + " onlyFailed=" + onlyFailed);
        if (!includeMembers) {
            return Future.succeededFuture(List.of());
        }
        List<MemberStatus> all = members.getOrDefault(listener, List.of());
        List<String> restarting = all.stream()
                .filter(m -> !onlyFailed || m.state() == io.shardline.runtime.rest.entity.ListenerState.FAILED)
                .map(MemberStatus::id)
                .toList();
        // As on a real worker, a member being restarted is absent from the report until it is back.
        members.put(listener, all.stream().filter(m -> !restarting.contains(m.id())).toList());
        return Future.succeededFuture(restarting);
    }

    @Override
    public Future<List<String>> restartMember(String listener, String memberId, String workerId) {
        restarts.add(listener + " member=" + memberId + " on " + workerId);
        return Future.succeededFuture(members.getOrDefault(listener, List.of()).stream()
                .anyMatch(m -> m.id().equals(memberId)) ? List.of(memberId) : List.of());
    }
}
