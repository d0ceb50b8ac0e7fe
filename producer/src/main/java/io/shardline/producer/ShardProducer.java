package io.shardline.producer;

import io.shardline.producer.routing.AddResult;
import io.shardline.producer.routing.NoTopologyException;
import io.shardline.producer.routing.RoutingRedis;
import io.shardline.producer.routing.RoutingTopology;
import io.shardline.producer.routing.ShardRouting;
import io.shardline.producer.routing.StaleRouting;
import io.shardline.producer.routing.Topologies;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Appends records to a sharded stream under its topology (docs/protocol.md, section 8b): the shard count and routing
 * epoch come from the stream's topology record {@code {<stream>:topology}}, read at the first write; the key picks
 * the shard ({@link KeyPartitioner}: {@code murmur2 mod shards}, as Kafka); the record goes to {@code {<stream>:<i>}}
 * by the epoch-checked add of the routing library ({@link ShardRouting#add}), the key first as field
 * {@value #KEY_FIELD} (where a handler finds it as {@code StreamRecord.key()}), then the record's fields in order.
 * Records without a key go round-robin over the shards.
 *
 * <p>A shard that accepts writes under a newer routing epoch (the stream is being resharded) refuses the write with
 * nothing written; the producer reads the topology again and routes the refused records anew, in their order, at
 * most {@value #MAX_ATTEMPTS} rounds ({@link RoutingRetriesExhaustedException}). A stream without topology is refused
 * ({@link NoTopologyException}) unless the producer was given a shard count
 * ({@link Create}): then it creates the topology with that count, or refuses when an existing one has another count.
 *
 * <p>Order per key: the records of one {@link #sendAll} are run by Redis in their order (one connection, pipelined);
 * a key's records go to one shard, whose epoch only rises, so the refused ones of a key are the last of that key in
 * the call and are written again, in order, in the new layout (after the shard's cutover, which consumers read only
 * after the old layout: docs/operations.md, "Changing the shard count"). A record's future completes after it is
 * written, so a caller that waits for one send before the next keeps per-key order across calls. Sends started without
 * waiting for each other go over different connections of the pool and have no order between them. Thread-safe.
 */
public final class ShardProducer {

    /** The field the key is written to (the same as {@code io.shardline.api.handler.StreamRecord.KEY_FIELD}). */
    public static final String KEY_FIELD = "__key";

    /** The rounds a record is routed at most: the first write and the retries after a refusal. */
    public static final int MAX_ATTEMPTS = 5;

    /** One record to append. {@code key} may be null (round-robin). */
    public record Record(String key, Map<String, String> fields) {
        /** Validates the fields map. */
        public Record {
            Objects.requireNonNull(fields, "fields");
        }
    }

    /**
     * How a producer creates the stream's topology when it has none (the one create of {@link Topologies#create}).
     *
     * @param shards the shard count; an existing topology with another count is refused
     * @param clusterName the cluster whose stream list ({@code GET /streams}) gets the stream, or null for none
     * @param reason recorded in the topology's history
     */
    public record Create(int shards, String clusterName, String reason) {
        /** Validates. */
        public Create {
            if (shards < 1) {
                throw new IllegalArgumentException("shard count must be >= 1, got " + shards);
            }
            Objects.requireNonNull(reason, "reason");
        }
    }

    private final String stream;
    private final StreamCap cap;
    private final Create create;
    private final ShardRouting routing;
    private final Topologies topologies;
    private final AtomicInteger roundRobin = new AtomicInteger();
    private final LongAdder refusals = new LongAdder();
    private volatile RoutingTopology topology;

    /** A producer for the existing stream {@code stream} over {@code redis}. */
    public ShardProducer(Redis redis, String stream) {
        this(RoutingRedis.of(redis), stream, null, StreamCap.NONE);
    }

    /** A producer for the existing stream {@code stream} that adds {@code cap} to every {@code XADD} ({@link StreamCap}). */
    public ShardProducer(Redis redis, String stream, StreamCap cap) {
        this(RoutingRedis.of(redis), stream, null, cap);
    }

    /** A producer that creates {@code stream} with {@code shardCount} shards unless it exists with that many. */
    public ShardProducer(Redis redis, String stream, int shardCount) {
        this(RoutingRedis.of(redis), stream, new Create(shardCount, null, "producer"), StreamCap.NONE);
    }

    /** As {@link #ShardProducer(Redis, String, int)}, adding {@code cap} to every {@code XADD}. */
    public ShardProducer(Redis redis, String stream, int shardCount, StreamCap cap) {
        this(RoutingRedis.of(redis), stream, new Create(shardCount, null, "producer"), cap);
    }

    /**
     * A producer over {@code redis}.
     *
     * @param create how to create the stream's topology when it has none, or null to refuse a stream without one
     */
    public ShardProducer(RoutingRedis redis, String stream, Create create, StreamCap cap) {
        if (stream.isBlank() || stream.indexOf('{') >= 0 || stream.indexOf('}') >= 0) {
            throw new IllegalArgumentException("stream name must be non-blank and contain no braces: '" + stream + "'");
        }
        this.stream = stream;
        this.create = create;
        this.cap = Objects.requireNonNull(cap, "cap");
        this.routing = new ShardRouting(redis);
        this.topologies = new Topologies(redis);
    }

    /** The shard stream key of shard {@code index}: {@code {orders:3}}. */
    public String shardKey(int index) {
        return ShardRouting.shardKey(stream, index);
    }

    /** The topology the producer routes with: read (or created) at the first call, then the last one read. */
    public Future<RoutingTopology> topology() {
        RoutingTopology known = topology;
        return known != null ? Future.succeededFuture(known) : load().map(this::adopt);
    }

    /** How many times a write was refused because the shard had moved to a newer routing epoch (rounds retried). */
    public long refusals() {
        return refusals.sum();
    }

    /** Appends one record; returns its entry id. */
    public Future<String> send(String key, Map<String, String> fields) {
        return sendAll(List.of(new Record(key, fields))).map(ids -> ids.get(0));
    }

    /** Appends records in their order (pipelined, not atomic); returns their entry ids in order. */
    public Future<List<String>> sendAll(List<Record> records) {
        String[] ids = new String[records.size()];
        List<Integer> all = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            all.add(i);
        }
        return topology().compose(t -> round(records, all, ids, t, 1)).map(v -> Arrays.asList(ids));
    }

    private Future<Void> round(List<Record> records, List<Integer> pending, String[] ids, RoutingTopology t, int attempt) {
        Future<List<AsyncResult<AddResult>>> sent;
        if (pending.size() == 1) {
            Record r = records.get(pending.get(0));
            sent = routing.add(stream, shardOf(r.key(), t), t.routingEpoch(), xaddArguments(r))
                    .transform(result -> Future.succeededFuture(List.of(result)));
        } else {
            List<Request> adds = new ArrayList<>(pending.size());
            for (int index : pending) {
                Record r = records.get(index);
                adds.add(routing.addRequest(stream, shardOf(r.key(), t), t.routingEpoch(), xaddArguments(r)));
            }
            sent = routing.addInOrder(adds);
        }
        return sent.compose(results -> {
            List<Integer> refused = new ArrayList<>();
            StaleRouting stale = null;
            for (int k = 0; k < results.size(); k++) {
                AsyncResult<AddResult> result = results.get(k);
                if (result.failed()) {
                    return Future.failedFuture(result.cause());
                }
                if (result.result() instanceof AddResult.Written written) {
                    ids[pending.get(k)] = written.id();
                } else {
                    refused.add(pending.get(k));
                    stale = ((AddResult.Refused) result.result()).stale();
                }
            }
            if (refused.isEmpty()) {
                return Future.succeededFuture();
            }
            refusals.increment();
            if (attempt >= MAX_ATTEMPTS) {
                return Future.failedFuture(new RoutingRetriesExhaustedException(stale, t, refused.size(), attempt));
            }
            return reread().compose(next -> round(records, refused, ids, next, attempt + 1));
        });
    }

    private int shardOf(String key, RoutingTopology t) {
        return key == null ? Math.floorMod(roundRobin.getAndIncrement(), t.shards()) : KeyPartitioner.shardFor(key, t.shards());
    }

    private List<String> xaddArguments(Record record) {
        List<String> args = new ArrayList<>(4 + 2 * record.fields().size());
        args.addAll(Arrays.asList(cap.arguments()));
        args.add("*");
        if (record.key() != null) {
            args.add(KEY_FIELD);
            args.add(record.key());
        }
        record.fields().forEach((k, v) -> {
            args.add(k);
            args.add(v);
        });
        return args;
    }

    /** Reads the topology again after a refusal. */
    private Future<RoutingTopology> reread() {
        return topologies.read(stream).map(found -> adopt(found.orElseThrow(
                () -> new NoTopologyException(stream))));
    }

    private Future<RoutingTopology> load() {
        return topologies.read(stream).compose(found -> {
            if (found.isPresent()) {
                return Future.succeededFuture(checked(found.get()));
            }
            if (create == null) {
                return Future.failedFuture(new NoTopologyException(stream));
            }
            return topologies.create(stream, create.shards(), create.reason(), create.clusterName())
                    .map(c -> checked(c.topology(stream)));
        });
    }

    private RoutingTopology checked(RoutingTopology found) {
        if (create != null && create.shards() != found.shards()) {
            throw new IllegalArgumentException("stream '" + stream + "' has " + found.shards() + " shards in its topology ("
                    + RoutingTopology.key(stream) + "), but the producer was given " + create.shards() + ": leave the "
                    + "shard count out to follow the topology, or change the stream's count with 'bin/shardline streams "
                    + "reshard " + stream + " --shards " + create.shards() + "'");
        }
        return found;
    }

    private synchronized RoutingTopology adopt(RoutingTopology read) {
        if (topology == null || read.routingEpoch() >= topology.routingEpoch()) {
            topology = read;
        }
        return topology;
    }
}
