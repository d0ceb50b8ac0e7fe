package io.shardline.runtime.rest;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.cluster.ClusterMember;
import io.shardline.runtime.cluster.LeaderView;
import io.shardline.runtime.listener.ListenerDefinition;
import io.shardline.runtime.member.MemberVerticle;
import io.shardline.runtime.rest.entity.AuditEntry;
import io.shardline.runtime.rest.entity.GroupView;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.WorkerInfo;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The {@link ClusterView} of a running {@link io.shardline.runtime.worker.Worker}: live workers and the
 * leader from the Hazelcast view, listeners from this worker's {@code listeners.dir}, and the members this
 * worker hosts (their owned shards and owner epochs).
 *
 * <p>Limits of this version: members hosted by other workers are not listed (each worker shows its own;
 * the shard owners in a status come from Redis and cover the whole cluster); the coordinator's read model
 * and audit log are not exposed by the coordinator host yet, so {@code /groups/*} answers 404; restarts
 * answer 501. Thread-safe.
 */
public final class WorkerClusterView implements ClusterView {

    private final String clusterName;
    private final String workerId;
    private final Supplier<LeaderView> view;
    private final Map<String, Map<String, String>> fileListeners;
    private final Map<String, List<MemberVerticle>> members;

    /**
     * A view.
     *
     * @param view the current Hazelcast view
     * @param definitions the listeners loaded from files
     * @param members the members this worker hosts, by listener name
     */
    public WorkerClusterView(String clusterName, String workerId, Supplier<LeaderView> view,
                             List<ListenerDefinition> definitions, Map<String, List<MemberVerticle>> members) {
        this.clusterName = Objects.requireNonNull(clusterName, "clusterName");
        this.workerId = Objects.requireNonNull(workerId, "workerId");
        this.view = Objects.requireNonNull(view, "view");
        Map<String, Map<String, String>> files = new TreeMap<>();
        for (ListenerDefinition d : definitions) {
            Map<String, String> raw = new TreeMap<>();
            d.config().values().raw().values().forEach((k, v) -> raw.put(k, v.text()));
            files.put(d.name(), java.util.Collections.unmodifiableMap(raw));
        }
        this.fileListeners = java.util.Collections.unmodifiableMap(files);
        Map<String, List<MemberVerticle>> copy = new TreeMap<>();
        members.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        this.members = java.util.Collections.unmodifiableMap(copy);
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
        List<String> localMembers = members.values().stream().flatMap(List::stream).map(MemberVerticle::memberId)
                .sorted().toList();
        List<WorkerInfo> out = new ArrayList<>();
        for (ClusterMember m : current.members()) {
            boolean local = m.nodeId().equals(current.local().nodeId());
            out.add(new WorkerInfo(m.workerId(), m.nodeId().equals(current.leader().nodeId()),
                    local ? List.copyOf(members.keySet()) : List.of(), local ? localMembers : List.of()));
        }
        return Future.succeededFuture(out);
    }

    @Override
    public Map<String, Map<String, String>> fileListeners() {
        return fileListeners;
    }

    @Override
    public Future<List<MemberStatus>> members(String listener) {
        List<MemberVerticle> hosted = members.getOrDefault(listener, List.of());
        List<Future<SortedMap<ShardId, Integer>>> owned = hosted.stream().map(MemberVerticle::owned).toList();
        return Future.all(owned).map(done -> {
            List<MemberStatus> out = new ArrayList<>();
            for (int i = 0; i < hosted.size(); i++) {
                SortedMap<ShardId, Integer> shards = done.resultAt(i);
                int epoch = shards.values().stream().mapToInt(Integer::intValue).max().orElse(0);
                out.add(new MemberStatus(hosted.get(i).memberId(), workerId, ListenerState.RUNNING, epoch,
                        shards.keySet().stream().map(s -> s.stream() + ":" + s.index()).toList(), null));
            }
            return out;
        });
    }

    @Override
    public Future<Optional<GroupView>> group(String group) {
        return Future.succeededFuture(Optional.empty());
    }

    @Override
    public Future<List<AuditEntry>> audit(String group, int limit) {
        return Future.succeededFuture(List.of());
    }

    @Override
    public Future<List<String>> restart(String listener, boolean includeMembers, boolean onlyFailed) {
        return Future.failedFuture(new ControlPlaneException(501, "restart is not available in this version: "
                + "restart the worker (bin/stop-worker, bin/start-worker)"));
    }
}
