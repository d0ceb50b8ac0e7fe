package io.shardline.runtime.control;

import io.shardline.runtime.topology.StreamTopology;
import io.shardline.runtime.topology.TopologyState;
import io.shardline.runtime.topology.TopologyStore;
import io.vertx.core.Future;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listener's shards as its group has them now: the declared shape ({@link ListenerShape#of}) with each stream's
 * count taken from the stream's topology in Redis, so that status, positions and shard pauses cover the shards a
 * change of the shard count added, and not those it retired, while the listener's definition still names the count
 * it started with (docs/operations.md, "Changing the shard count"). A topology this worker cannot read (a Redis ACL
 * without the stream's topology key) leaves the declared count, with a warning the first time for each listener.
 * Thread-safe; never blocks.
 */
final class ListenerShapes {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerShapes.class);

    private final TopologyStore topologies;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    ListenerShapes(TopologyStore topologies) {
        this.topologies = Objects.requireNonNull(topologies, "topologies");
    }

    /**
     * The shape of listener {@code name} with the current shard counts of its streams.
     *
     * @throws ControlPlaneException (as a failed future) 400 naming {@code streams} when it is malformed
     */
    Future<ListenerShape> of(String name, Map<String, String> config) {
        ListenerShape declared;
        try {
            declared = ListenerShape.of(name, config);
        } catch (ControlPlaneException e) {
            return Future.failedFuture(e);
        }
        return topologies.readAll(declared.streams()).map(declared::following).recover(e -> {
            if (warned.add(name)) {
                LOG.warn("Listener {}: could not read the topology of {} ({}); showing its declared shard counts",
                        name, declared.streams(), e.getMessage());
            }
            return Future.succeededFuture(declared);
        });
    }

    /**
     * Fails with 409 when a stream of {@code shape} is changing its shard count: a group's positions are what the
     * change's barriers wait on (docs/protocol.md, section 8), so they move only on a {@code STABLE} stream.
     *
     * @param what what is refused, e.g. {@code "the positions of listener 'billing'"}
     */
    Future<Void> requireStable(ListenerShape shape, String what) {
        return topologies.readAll(shape.streams()).compose(all -> {
            for (StreamTopology t : all.values()) {
                if (t.state() != TopologyState.STABLE) {
                    return Future.failedFuture(ControlPlaneException.conflict(what + " cannot change while stream '"
                            + t.stream() + "' is " + t.state() + " (to " + t.shards() + " shards, routing epoch "
                            + t.routingEpoch() + "): its change waits on the group's positions; wait until it is STABLE"
                            + " (bin/shardline streams describe " + t.stream() + ") or roll it back (bin/shardline"
                            + " streams rollback " + t.stream() + ")"));
                }
            }
            return Future.<Void>succeededFuture();
        });
    }
}
