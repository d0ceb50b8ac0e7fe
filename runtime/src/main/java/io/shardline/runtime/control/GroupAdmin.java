package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.redis.Chunked;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.rest.entity.GroupSummary;
import io.shardline.runtime.rest.entity.ListenerStatus;
import io.shardline.runtime.rest.entity.ShardStatus;
import io.shardline.runtime.rest.entity.TargetState;
import io.shardline.runtime.store.MetadataKeys;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * {@code GET /groups} and {@code DELETE /groups/{group}}: the groups are those the leader's coordinator hosts
 * plus those a listener names; lag is read from Redis. A deletion is refused (409) while a listener using the
 * group is not {@code STOPPED} (its members would configure the group again) or while the coordinator still
 * has members; otherwise the coordinator forgets the group first (its tombstone is committed, so no leader
 * brings it back), then its Redis consumer group, owner hash and error hash on every shard and its audit stream
 * are deleted. Thread-safe; never blocks.
 */
final class GroupAdmin {

    private final ClusterView cluster;
    private final RedisClient redis;
    private final MetadataKeys keys;
    private final ShardStatusReader shards;
    private final Supplier<Future<Map<String, ListenerStatus>>> listeners;

    GroupAdmin(ClusterView cluster, RedisClient redis, Supplier<Future<Map<String, ListenerStatus>>> listeners) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.redis = Objects.requireNonNull(redis, "redis");
        this.keys = new MetadataKeys(cluster.clusterName());
        this.shards = new ShardStatusReader(redis);
        this.listeners = Objects.requireNonNull(listeners, "listeners");
    }

    /** Every group, sorted by id. */
    Future<List<GroupSummary>> groups() {
        return Future.all(cluster.hostedGroups(), listeners.get()).compose(done -> {
            List<HostedGroup> hosted = done.resultAt(0);
            Map<String, ListenerStatus> statuses = done.resultAt(1);
            Map<String, HostedGroup> byId = new TreeMap<>();
            hosted.forEach(g -> byId.put(g.group(), g));
            Map<String, List<ListenerStatus>> users = users(statuses);
            Set<String> ids = new TreeSet<>(byId.keySet());
            ids.addAll(users.keySet());
            List<Future<GroupSummary>> out = new ArrayList<>();
            for (String id : ids) {
                out.add(summary(id, byId.get(id), users.getOrDefault(id, List.of())));
            }
            return Future.all(out).map(all -> {
                List<GroupSummary> list = new ArrayList<>();
                for (int i = 0; i < out.size(); i++) {
                    list.add(all.resultAt(i));
                }
                return list;
            });
        });
    }

    /** Deletes {@code group}: 404 when unknown, 409 while in use. */
    Future<Void> delete(String group) {
        return Future.all(cluster.hostedGroups(), listeners.get()).compose(done -> {
            List<HostedGroup> hosted = done.resultAt(0);
            HostedGroup found = hosted.stream().filter(g -> g.group().equals(group)).findFirst().orElse(null);
            List<ListenerStatus> users = users(done.resultAt(1)).getOrDefault(group, List.of());
            List<String> running = users.stream().filter(s -> s.targetState() != TargetState.STOPPED)
                    .map(ListenerStatus::name).toList();
            if (!running.isEmpty()) {
                return Future.failedFuture(ControlPlaneException.conflict("group '" + group + "' is used by listener "
                        + String.join(", ", running) + ", which is not STOPPED; stop it first (PUT /listeners/"
                        + running.get(0) + "/stop or bin/shardline listeners stop " + running.get(0) + ")"));
            }
            if (found == null && users.isEmpty()) {
                return Future.failedFuture(ControlPlaneException.notFound("unknown group '" + group + "'"));
            }
            List<ShardId> shardIds = found != null ? shardsOf(found.streams())
                    : users.get(0).shards().stream().map(s -> new ShardId(s.stream(), s.shard())).toList();
            Future<Void> forget = found == null ? Future.succeededFuture() : forget(group);
            return forget.compose(v -> removeKeys(group, shardIds));
        });
    }

    private Future<Void> forget(String group) {
        return cluster.deleteHostedGroup(group).compose(deletion -> {
            if ("HAS_MEMBERS".equals(deletion.outcome())) {
                return Future.failedFuture(ControlPlaneException.conflict("group '" + group + "' still has "
                        + deletion.members().size() + " live member(s) (" + String.join(", ", deletion.members())
                        + "); stop the listeners using it and wait until they have left (GET /groups/" + group + ")"));
            }
            return Future.succeededFuture();
        });
    }

    private Future<Void> removeKeys(String group, List<ShardId> shardIds) {
        return Chunked.map(shardIds, Chunked.POOL_CHUNK, shard -> Future.all(
                        redis.send(Request.cmd(Command.XGROUP).arg("DESTROY").arg(shard.key()).arg(group))
                                .recover(e -> String.valueOf(e.getMessage()).contains("requires the key to exist")
                                        ? Future.succeededFuture() : Future.failedFuture(e)),
                        redis.send(Request.cmd(Command.DEL).arg(shard.ownerKey(group))
                                .arg(io.shardline.runtime.shard.ShardCommands.errorsKey(shard, group)))))
                .compose(done -> redis.send(Request.cmd(Command.DEL).arg(keys.audit(group))))
                .mapEmpty();
    }

    private Future<GroupSummary> summary(String id, HostedGroup hosted, List<ListenerStatus> users) {
        List<String> names = users.stream().map(ListenerStatus::name).sorted().toList();
        var state = users.size() == 1 ? users.get(0).state() : null;
        String groupState = hosted == null ? GroupSummary.NOT_CREATED
                : hosted.members() > 0 ? GroupSummary.ACTIVE : GroupSummary.EMPTY;
        int members = hosted == null ? 0 : hosted.members();
        if (!users.isEmpty()) {
            ListenerStatus first = users.get(0);
            return Future.succeededFuture(new GroupSummary(id, streamsOf(first.shards()), names, state, groupState,
                    members, totalLag(first.shards())));
        }
        Map<String, Integer> streams = hosted.streams();
        return shards.read(id, shardsOf(streams), Set.of()).map(read -> new GroupSummary(id, streamsOf(read), names,
                null, groupState, members, totalLag(read)));
    }

    private static Map<String, List<ListenerStatus>> users(Map<String, ListenerStatus> statuses) {
        Map<String, List<ListenerStatus>> users = new TreeMap<>();
        statuses.values().forEach(s -> users.computeIfAbsent(s.group(), g -> new ArrayList<>()).add(s));
        return users;
    }

    private static List<ShardId> shardsOf(Map<String, Integer> streams) {
        List<ShardId> out = new ArrayList<>();
        streams.forEach((stream, count) -> {
            for (int i = 0; i < count; i++) {
                out.add(new ShardId(stream, i));
            }
        });
        return out;
    }

    private static List<String> streamsOf(List<ShardStatus> shards) {
        Map<String, Integer> counts = new TreeMap<>();
        shards.forEach(s -> counts.merge(s.stream(), 1, Integer::sum));
        return counts.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).toList();
    }

    private static Long totalLag(List<ShardStatus> shards) {
        long sum = 0;
        for (ShardStatus s : shards) {
            if (s.lag() == null) {
                return null;
            }
            sum += s.lag();
        }
        return sum;
    }
}
