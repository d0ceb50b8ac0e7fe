package io.shardline.runtime.control;

import io.shardline.runtime.topology.StreamSpec;
import io.shardline.runtime.rest.entity.GroupSummary;
import io.shardline.runtime.rest.entity.StreamView;
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
 * topology with a shard count, as its first listener would; 409 when it exists). Only reads and creates: a
 * stream's shard count does not change (docs/operations.md, "Changing the shard count"). Thread-safe.
 */
public final class StreamAdmin {

    private final TopologyStore store;
    private final Supplier<Future<List<GroupSummary>>> groups;

    /** Streams over {@code store}; {@code groups} lists the cluster's groups (for the groups on each stream). */
    public StreamAdmin(TopologyStore store, Supplier<Future<List<GroupSummary>>> groups) {
        this.store = Objects.requireNonNull(store, "store");
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
                        + "); its shard count does not change (docs/operations.md, Changing the shard count)"));
            }
            return groups.get().map(all -> view(created.topology(), all));
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
                on);
    }

    /** {@code orders} of a group's {@code orders:16}. */
    private static String streamName(String streamAndCount) {
        int colon = streamAndCount.lastIndexOf(':');
        return colon < 0 ? streamAndCount : streamAndCount.substring(0, colon);
    }
}
