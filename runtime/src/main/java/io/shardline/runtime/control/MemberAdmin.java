package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.ListenerStatus;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.ShardStatus;
import io.shardline.runtime.rest.entity.TargetState;
import io.vertx.core.Future;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A listener's members and status over REST: the status of one listener or all (its state from the target state and
 * its members' reports, the shards' owners and lag through the {@link ShardStatusCache}, paused shards from the
 * stored target states), one member, and restarts of a listener or one member on its worker
 * ({@link ClusterView#restart}, {@link ClusterView#restartMember}). Thread-safe; never blocks.
 */
final class MemberAdmin {

    private final ClusterView cluster;
    private final ListenerStateStore states;
    private final ShardStatusCache cache;
    private final Supplier<Future<List<String>>> listenerNames;
    private final Function<String, Future<Map<String, String>>> configOf;
    /** The listener's shards as its group has them now (after a change of the shard count too). */
    private final ListenerShapes shapes;

    /**
     * A member admin.
     *
     * @param names every listener's name (files and stored)
     * @param configOf a listener's configuration (404 for an unknown listener)
     */
    MemberAdmin(ClusterView cluster, ListenerStateStore states, ShardStatusCache cache,
                Supplier<Future<List<String>>> names, Function<String, Future<Map<String, String>>> configOf,
                ListenerShapes shapes) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.states = Objects.requireNonNull(states, "states");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.listenerNames = Objects.requireNonNull(names, "names");
        this.configOf = Objects.requireNonNull(configOf, "configOf");
        this.shapes = Objects.requireNonNull(shapes, "shapes");
    }

    /** The status of every listener, by name. */
    Future<Map<String, ListenerStatus>> listenerStatuses() {
        return statuses(this::listenerStatus);
    }

    private Future<Map<String, ListenerStatus>> statuses(Function<String, Future<ListenerStatus>> of) {
        return listenerNames.get().compose(names -> {
            List<Future<ListenerStatus>> all = names.stream().map(of).toList();
            return Future.all(all).map(done -> {
                Map<String, ListenerStatus> out = new TreeMap<>();
                for (int i = 0; i < names.size(); i++) {
                    out.put(names.get(i), done.resultAt(i));
                }
                return out;
            });
        });
    }

    /** Listener {@code name}'s status with every shard. */
    Future<ListenerStatus> listenerStatus(String name) {
        return status(name, (shape, report) -> shape.shards());
    }

    /** Listener {@code name}'s status with the shards of {@code page}. */
    Future<ListenerStatus> listenerStatus(String name, ShardPage page) {
        int[] total = new int[1];
        return status(name, (shape, report) -> {
            total[0] = shape.shards().size();
            return page.of(shape.shards());
        }).map(status -> status.paged(total[0], page.offset()));
    }

    /** Every listener's status with the shards worker {@code workerId} samples ({@link SampledShards}). */
    Future<Map<String, ListenerStatus>> sampledStatuses(String workerId, boolean unowned) {
        return statuses(name -> status(name, (shape, report) -> SampledShards.select(shape.shards(),
                report.members(), workerId, unowned)));
    }

    /** The status of listener {@code name} with the shards {@code select} picks from its shape and member report. */
    private Future<ListenerStatus> status(String name,
                                          BiFunction<ListenerShape, MemberReport, List<ShardId>> select) {
        return configOf.apply(name).compose(config -> shapes.of(name, config)).compose(shape ->
                states.snapshot().compose(snapshot -> {
                    TargetState target = snapshot.targetState(name);
                    return cluster.members(name).compose(report -> cache.read(shape.group(), select.apply(shape, report))
                            .map(read -> status(name, shape.group(), target, report,
                                    ShardStatusCache.withPaused(read, snapshot.pausedShards(name)))));
                }));
    }

    /** Restarts listener {@code name} (its members with {@code includeMembers}, only failed ones with {@code onlyFailed}). */
    Future<ListenerStatus> restart(String name, boolean includeMembers, boolean onlyFailed) {
        // The status is read before the restart is asked for: a member being restarted leaves its worker's report
        // for a moment, and the answer must still list it (as RESTARTING).
        return configOf.apply(name)
                .compose(config -> listenerStatus(name, ShardPage.FIRST))
                .compose(before -> cluster.restart(name, includeMembers, onlyFailed)
                        .map(restarting -> restarting(before, Set.copyOf(restarting))))
                .onComplete(ar -> cache.clear());
    }

    /** Member {@code memberId} of listener {@code name} (404 naming its members when there is none). */
    Future<MemberStatus> member(String name, String memberId) {
        return listenerStatus(name).compose(status -> status.members().stream()
                .filter(m -> m.id().equals(memberId)).findFirst().map(Future::succeededFuture)
                .orElseGet(() -> Future.failedFuture(ControlPlaneException.notFound("listener '" + name
                        + "' has no member '" + memberId + "'; its members: " + status.members().stream()
                        .map(MemberStatus::id).collect(Collectors.joining(", "))))));
    }

    /** Restarts one member on its worker (409 when it no longer runs there). */
    Future<MemberStatus> restartMember(String name, String memberId) {
        return member(name, memberId).compose(m -> cluster.restartMember(name, memberId, m.workerId())
                .compose(restarting -> restarting.isEmpty()
                        ? Future.failedFuture(ControlPlaneException.conflict("member '" + memberId + "' of listener '"
                                + name + "' is no longer running on worker " + m.workerId() + "; list the members again"))
                        : Future.succeededFuture(new MemberStatus(m.id(), m.workerId(), ListenerState.RESTARTING,
                                m.epoch(), m.shards(), null))));
    }

    private static ListenerStatus status(String name, String group, TargetState target, MemberReport report,
                                         List<ShardStatus> shards) {
        List<MemberStatus> sorted = report.members().stream().sorted(Comparator.comparing(MemberStatus::id)).toList();
        MemberStatus failed = sorted.stream().filter(m -> m.state() == ListenerState.FAILED).findFirst().orElse(null);
        ListenerState state;
        if (target == TargetState.STOPPED) {
            state = ListenerState.STOPPED;
        } else if (target == TargetState.PAUSED) {
            state = ListenerState.PAUSED;
        } else if (failed != null) {
            state = ListenerState.FAILED;
        } else if (sorted.stream().anyMatch(m -> m.state() == ListenerState.RUNNING)
                || shards.stream().anyMatch(s -> s.owner() != null)) {
            state = ListenerState.RUNNING;
        } else {
            state = ListenerState.UNASSIGNED;
        }
        String trace = state == ListenerState.FAILED ? failed.id() + ": " + failed.trace() : null;
        return new ListenerStatus(name, state, target, group, trace, sorted, shards, report.unanswered());
    }

    private static ListenerStatus restarting(ListenerStatus status, Set<String> restarting) {
        List<MemberStatus> members = status.members().stream()
                .map(m -> restarting.contains(m.id()) ? new MemberStatus(m.id(), m.workerId(), ListenerState.RESTARTING,
                        m.epoch(), m.shards(), null) : m)
                .toList();
        return new ListenerStatus(status.name(), restarting.isEmpty() ? status.state() : ListenerState.RESTARTING,
                status.targetState(), status.group(), status.trace(), members, status.shards(),
                status.unansweredWorkers());
    }
}
