package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.listener.Listener;
import io.shardline.runtime.member.MemberVerticle;
import io.shardline.runtime.rest.entity.ListenerState;
import io.shardline.runtime.rest.entity.MemberStatus;
import io.shardline.runtime.rest.entity.TargetState;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;

/**
 * What {@link ListenerSupervisor} knows of one listener on this worker: either started (its listener and
 * heartbeat loops) or failed to start (the reason, reported as FAILED members until a restart or a new
 * definition). Immutable.
 *
 * @param name the listener
 * @param stored the stored configuration it was started from; {@code null} for a listener from a file
 * @param started the running listener, {@code null} when it failed
 * @param concurrency its member count (for reporting a failed listener's members)
 * @param failure why it failed to start, {@code null} when it runs
 */
record RunningListener(String name, Map<String, String> stored, ListenerRunner.Started started, int concurrency,
                       String failure) {

    RunningListener {
        Objects.requireNonNull(name, "name");
        stored = stored == null ? null : Map.copyOf(stored);
        if ((started == null) == (failure == null)) {
            throw new IllegalArgumentException("a listener either runs or failed: " + name);
        }
    }

    static RunningListener running(String name, Map<String, String> stored, ListenerRunner.Started started) {
        return new RunningListener(name, stored, started, started.members().size(), null);
    }

    static RunningListener failed(String name, Map<String, String> stored, int concurrency, String failure) {
        return new RunningListener(name, stored, null, concurrency, failure);
    }

    /** The running listener, {@code null} when it failed. */
    Listener listener() {
        return started == null ? null : started.listener();
    }

    /** Its heartbeat loops (none when it failed). */
    List<MemberVerticle> members() {
        return started == null ? List.of() : started.members();
    }

    /** Its member ids, also of a failed listener ({@code <worker>-<listener>-m<i>}). */
    List<String> memberIds(String workerId) {
        if (started != null) {
            return started.members().stream().map(MemberVerticle::memberId).toList();
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            ids.add(workerId + "-" + name + "-m" + i);
        }
        return ids;
    }

    /**
     * Its members' statuses on this worker: owned shards and epochs read from each heartbeat loop; a member whose
     * shard stopped for good ({@code failures}) is FAILED with that reason.
     */
    Future<List<MemberStatus>> status(String workerId, TargetState target,
                                      java.util.function.Function<String, java.util.Optional<String>> failures) {
        if (started == null) {
            return Future.succeededFuture(memberIds(workerId).stream()
                    .map(id -> new MemberStatus(id, workerId, ListenerState.FAILED, 0, List.of(), failure))
                    .toList());
        }
        ListenerState state = target == TargetState.PAUSED ? ListenerState.PAUSED : ListenerState.RUNNING;
        List<MemberVerticle> loops = started.members();
        List<Future<SortedMap<ShardId, Integer>>> owned = loops.stream().map(MemberVerticle::owned).toList();
        return Future.all(owned).map(done -> {
            List<MemberStatus> out = new ArrayList<>();
            for (int i = 0; i < loops.size(); i++) {
                SortedMap<ShardId, Integer> shards = done.resultAt(i);
                int epoch = shards.values().stream().mapToInt(Integer::intValue).max().orElse(0);
                String failed = failures.apply(loops.get(i).memberId()).orElse(null);
                out.add(new MemberStatus(loops.get(i).memberId(), workerId, failed == null ? state : ListenerState.FAILED,
                        epoch, shards.keySet().stream().map(s -> s.stream() + ":" + s.index()).toList(), failed));
            }
            return out;
        });
    }
}
