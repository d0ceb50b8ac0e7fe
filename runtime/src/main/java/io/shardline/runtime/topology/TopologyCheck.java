package io.shardline.runtime.topology;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Checks a listener's {@code streams} against the streams' topologies: a listener whose shard count of a stream
 * differs from the stream's topology is refused, with a message naming both counts and what to do (a stream's
 * shard count does not change by editing a listener: nothing would read the new shards' records; it changes with
 * {@code bin/shardline streams reshard}, see {@code docs/operations.md}, "Changing the shard count"). While a change
 * runs, every count of it (the one before and the one it goes to) is accepted: a worker restarted mid-change still
 * has the old count in its listener file, and its members follow the group's shard set, which the leader changes. At a listener's start a missing topology is created
 * with the listener's count (the first listener of a stream fixes it); over REST it is only read. Thread-safe.
 */
public final class TopologyCheck {

    private final TopologyStore store;

    /** A check over {@code store}. */
    public TopologyCheck(TopologyStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Creates the missing topologies of {@code streams} (with the listener's shard counts) and checks the others.
     *
     * @return a future failed with a {@link TopologyMismatchException} when a shard count disagrees
     */
    public Future<Void> ensure(String listener, List<StreamSpec> streams) {
        List<Future<TopologyStore.Created>> created = streams.stream()
                .map(s -> store.create(s.name(), s.shardCount(), "listener " + listener)).toList();
        return Future.all(created).compose(done -> {
            List<StreamTopology> topologies = created.stream().map(f -> f.result().topology()).toList();
            return problem(listener, streams, topologies).<Future<Void>>map(
                    m -> Future.failedFuture(new TopologyMismatchException(m))).orElseGet(Future::succeededFuture);
        });
    }

    /**
     * Checks {@code streams} against the topologies that exist (a stream without one is not checked).
     *
     * @return a future failed with a {@link TopologyMismatchException} when a shard count disagrees
     */
    public Future<Void> check(String listener, List<StreamSpec> streams) {
        return store.readAll(streams.stream().map(StreamSpec::name).toList()).compose(found ->
                problem(listener, streams, List.copyOf(found.values())).<Future<Void>>map(
                        m -> Future.failedFuture(new TopologyMismatchException(m))).orElseGet(Future::succeededFuture));
    }

    /** What is wrong with {@code streams} given {@code topologies}, naming both counts and the remedy; empty when nothing. */
    static Optional<String> problem(String listener, List<StreamSpec> streams, List<StreamTopology> topologies) {
        Map<String, StreamTopology> byName = new java.util.TreeMap<>();
        topologies.forEach(t -> byName.put(t.stream(), t));
        List<String> problems = new ArrayList<>();
        for (StreamSpec spec : streams) {
            StreamTopology t = byName.get(spec.name());
            if (t != null && t.shards() != spec.shardCount() && !t.layouts().containsValue(spec.shardCount())) {
                problems.add("streams=" + spec + " but stream '" + spec.name() + "' has " + t.shards()
                        + " shards (its topology " + StreamTopology.key(spec.name()) + ", routing epoch "
                        + t.routingEpoch() + ", " + t.state() + ")");
            }
        }
        if (problems.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("listener '" + listener + "': " + String.join("; ", problems) + ". A stream's shard "
                + "count does not change by editing a listener (the group would never read the records of the other "
                + "layout): set the stream's current count in streams, and change a stream's count with "
                + "bin/shardline streams reshard <stream> --shards N (docs/operations.md, Changing the shard count)");
    }
}
