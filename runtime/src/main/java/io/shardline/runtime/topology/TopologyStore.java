package io.shardline.runtime.topology;

import io.shardline.producer.routing.Topologies;
import io.shardline.runtime.redis.ClientRoutingRedis;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisReplies;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads and creates stream topologies in Redis ({@link StreamTopology#key}). A topology is created once, in one
 * atomic step on its own key, with routing epoch 1 and state {@code STABLE}; creating one that exists returns the
 * existing one unchanged, so the first listener (or command) of a stream fixes its shard count and every later one
 * is checked against it. The streams a cluster uses are listed in the hash {@code {shardline:<cluster>}:streams}
 * (stream name to the time it was registered), written after the topology, so that {@code GET /streams} finds
 * a stream that no listener names yet. Thread-safe.
 */
public final class TopologyStore {

    /** Whether {@link #create} made the topology or found it. */
    public record Created(StreamTopology topology, boolean created) {
    }

    private final RedisClient redis;
    private final String clusterName;
    private final String registry;
    /** The one create of a topology, shared with the producers (docs/protocol.md, section 8b). */
    private final Topologies topologies;

    /** A store over {@code redis} for the cluster {@code clusterName} (whose streams it lists). */
    public TopologyStore(RedisClient redis, String clusterName) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.clusterName = Objects.requireNonNull(clusterName, "clusterName");
        this.registry = Topologies.registryKey(clusterName);
        this.topologies = new Topologies(new ClientRoutingRedis(redis));
    }

    /** The topology of {@code stream}, empty when none was created. */
    public Future<Optional<StreamTopology>> read(String stream) {
        return redis.send(Request.cmd(Command.HGETALL).arg(StreamTopology.key(stream))).map(reply -> {
            Map<String, String> fields = RedisReplies.toStringMap(reply);
            return fields.isEmpty() ? Optional.empty() : Optional.of(StreamTopology.fromHash(stream, fields));
        });
    }

    /**
     * Creates {@code stream}'s topology with {@code shards} shards unless it exists.
     *
     * @param reason recorded in the history, e.g. {@code listener orders}
     */
    public Future<Created> create(String stream, int shards, String reason) {
        return topologies.create(stream, shards, reason, clusterName)
                .map(c -> new Created(StreamTopology.fromHash(stream, c.fields()), c.created()));
    }

    /** The streams registered for this cluster, sorted. */
    public Future<List<String>> names() {
        return redis.send(Request.cmd(Command.HGETALL).arg(registry))
                .map(reply -> RedisReplies.toStringMap(reply).keySet().stream().sorted().toList());
    }

    /** Every topology of {@code streams} that exists, by stream name. */
    public Future<Map<String, StreamTopology>> readAll(List<String> streams) {
        List<Future<Optional<StreamTopology>>> reads = streams.stream().map(this::read).toList();
        return Future.all(reads).map(done -> {
            Map<String, StreamTopology> out = new java.util.TreeMap<>();
            for (Future<Optional<StreamTopology>> f : reads) {
                f.result().ifPresent(t -> out.put(t.stream(), t));
            }
            return out;
        });
    }
}
