package io.shardline.runtime.control;

import io.shardline.runtime.topology.StreamSpec;
import io.shardline.runtime.rest.entity.GroupSummary;
import io.shardline.runtime.rest.entity.StreamView;
import io.shardline.runtime.reshard.Reshard;
import io.shardline.runtime.reshard.ReshardRefusedException;
import io.shardline.runtime.reshard.ReshardStore;
import io.shardline.runtime.topology.StreamTopology;
import io.shardline.runtime.topology.TopologyStore;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The streams of the cluster over REST: {@code GET /streams} (every stream the cluster registered or one of its
 * groups names, with its topology), {@code GET /streams/{stream}}, and {@code POST /streams} (creates a stream's
 * topology with a shard count, as its first listener would; 409 when it exists), {@code POST
 * /streams/{stream}/reshard} and {@code POST /streams/{stream}/reshard/rollback} (start a change or roll it back in
 * the topology record; the leader's {@code ReshardTask} carries it out: docs/operations.md, "Changing the shard
 * count"). Thread-safe.
 */
public final class StreamAdmin {

    private final TopologyStore store;
    private final ReshardStore reshards;
    private final Supplier<Future<List<GroupSummary>>> groups;

    /** Streams over {@code store}; {@code groups} lists the cluster's groups (for the groups on each stream). */
    public StreamAdmin(TopologyStore store, ReshardStore reshards, Supplier<Future<List<GroupSummary>>> groups) {
        this.store = Objects.requireNonNull(store, "store");
        this.reshards = Objects.requireNonNull(reshards, "reshards");
        this.groups = Objects.requireNonNull(groups, "groups");
    }

    /** Every stream with a topology that the cluster registered or a group names, sorted by name. */
    public Future<List<StreamView>> streams() {
        return Future.all(store.names(), groups.get()).compose(both -> {
            List<GroupSummary> all = both.resultAt(1);
            TreeSet<String> names = new TreeSet<>(both.<List<String>>resultAt(0));
            all.forEach(g -> g.streams().forEach(s -> names.add(streamName(s))));
            return store.readAll(List.copyOf(names)).map(found -> found.values().stream()
                    .map(t -> view(t, all)).toList());
        });
    }

    /**
     * One stream.
     *
     * @throws ControlPlaneException (as a failed future) 404 when the stream has no topology
     */
    public Future<StreamView> stream(String stream) {
        checkName(stream);
        return Future.all(store.read(stream), groups.get()).map(both -> both.<java.util.Optional<StreamTopology>>resultAt(0)
                .map(t -> view(t, both.resultAt(1)))
                .orElseThrow(() -> ControlPlaneException.notFound("stream '" + stream + "' has no topology (no "
                        + "listener started on it and it was not created with POST /streams)")));
    }

    /**
     * Creates {@code stream}'s topology with {@code shards} shards.
     *
     * @throws ControlPlaneException (as a failed future) 400 for a bad name or count, 409 when it exists
     */
    public Future<StreamView> create(String stream, int shards) {
        checkName(stream);
        if (shards < 1 || shards > StreamSpec.MAX_SHARDS) {
            throw ControlPlaneException.badRequest("shards: must be 1.." + StreamSpec.MAX_SHARDS + ", was " + shards);
        }
        return store.create(stream, shards, "created over REST").compose(created -> {
            if (!created.created()) {
                return Future.failedFuture(ControlPlaneException.conflict("stream '" + stream + "' exists with "
                        + created.topology().shards() + " shards (routing epoch " + created.topology().routingEpoch()
                        + "); change its shard count with POST /streams/" + stream + "/reshard (docs/operations.md, "
                        + "Changing the shard count)"));
            }
            return groups.get().map(all -> view(created.topology(), all));
        });
    }

    /**
     * Starts changing {@code stream}'s shard count to {@code shards} (a new routing epoch; the leader's task does
     * the rest) and answers the stream.
     *
     * @throws ControlPlaneException (as a failed future) 400 for a bad count, 404 without topology, 409 when a
     *     change runs or the count is unchanged
     */
    public Future<StreamView> reshard(String stream, int shards) {
        checkName(stream);
        return change(stream, r -> r.start(shards), "reshard to " + shards + " shards over REST");
    }

    /**
     * Rolls {@code stream}'s running change back (a new routing epoch back to the count before it).
     *
     * @throws ControlPlaneException (as a failed future) 404 without topology, 409 when no change runs to roll back
     */
    public Future<StreamView> rollback(String stream) {
        checkName(stream);
        return change(stream, Reshard::rollback, "rollback over REST");
    }

    private Future<StreamView> change(String stream, java.util.function.Consumer<Reshard> step, String reason) {
        return reshards.read(stream).compose(found -> {
            Reshard machine = found.orElseThrow(() -> ControlPlaneException.notFound("stream '" + stream + "' has no "
                    + "topology (no listener started on it and it was not created with POST /streams)"));
            ReshardStore.Expected read = ReshardStore.Expected.of(machine);
            try {
                step.accept(machine);
            } catch (ReshardRefusedException e) {
                throw e.reason() == ReshardRefusedException.Reason.BAD_COUNT
                        ? ControlPlaneException.badRequest(e.getMessage()) : ControlPlaneException.conflict(e.getMessage());
            }
            return reshards.write(machine, read, reason, java.util.Map.of());
        }).compose(written -> {
            if (written != 1) {
                return Future.failedFuture(ControlPlaneException.conflict("stream '" + stream + "' changed while "
                        + "this request was applied (another change or the leader's step); read it and try again"));
            }
            return stream(stream);
        });
    }

    private static void checkName(String stream) {
        try {
            new StreamSpec(stream, 1);
        } catch (IllegalArgumentException e) {
            throw ControlPlaneException.badRequest("stream: " + e.getMessage());
        }
    }

    private static StreamView view(StreamTopology t, List<GroupSummary> all) {
        List<String> on = new ArrayList<>();
        for (GroupSummary g : all) {
            if (g.streams().stream().anyMatch(s -> streamName(s).equals(t.stream()))) {
                on.add(g.group());
            }
        }
        on.sort(null);
        return new StreamView(t.stream(), t.shards(), t.routingEpoch(), t.state().name(), t.history().stream()
                .map(c -> new StreamView.Change(c.routingEpoch(), c.shards(), c.state(), c.atMs(), c.reason())).toList(),
                on, t.layouts().isEmpty() ? null : t.fromShards(), layouts(t), progress(t.progress()));
    }

    private static java.util.Map<String, Integer> layouts(StreamTopology t) {
        if (t.layouts().isEmpty()) {
            return null;
        }
        java.util.Map<String, Integer> out = new java.util.LinkedHashMap<>();
        t.layouts().forEach((e, n) -> out.put(Long.toString(e), n));
        return out;
    }

    private static java.util.Map<String, Object> progress(String json) {
        return json == null || json.isBlank() ? null : new io.vertx.core.json.JsonObject(json).getMap();
    }

    /** {@code orders} of a group's {@code orders:16}. */
    private static String streamName(String streamAndCount) {
        int colon = streamAndCount.lastIndexOf(':');
        return colon < 0 ? streamAndCount : streamAndCount.substring(0, colon);
    }
}
