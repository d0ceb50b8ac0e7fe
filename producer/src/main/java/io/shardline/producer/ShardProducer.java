package io.shardline.producer;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Appends records to a sharded stream: the key picks the shard ({@link KeyPartitioner}), the record
 * goes to {@code {<stream>:<shard>}} with {@code XADD ... *}, the key first as field {@value #KEY_FIELD}
 * (where a handler finds it as {@code StreamRecord.key()}), then the record's fields in order.
 * Records without a key go round-robin over the shards. Thread-safe.
 */
public final class ShardProducer {

    /** The field the key is written to (the same as {@code io.shardline.api.handler.StreamRecord.KEY_FIELD}). */
    public static final String KEY_FIELD = "__key";

    /** One record to append. {@code key} may be null (round-robin). */
    public record Record(String key, Map<String, String> fields) {
        /** Validates the fields map. */
        public Record {
            Objects.requireNonNull(fields, "fields");
        }
    }

    private final Redis redis;
    private final String stream;
    private final int shardCount;
    private final java.util.concurrent.atomic.AtomicInteger roundRobin = new java.util.concurrent.atomic.AtomicInteger();
    private final StreamCap cap;

    /** A producer for {@code stream} with {@code shardCount} shards over {@code redis}. */
    public ShardProducer(Redis redis, String stream, int shardCount) {
        this(redis, stream, shardCount, StreamCap.NONE);
    }

    /**
     * A producer that adds {@code cap} to every {@code XADD}. A cap trims on the write and can drop records no
     * consumer group has read yet (see {@link StreamCap}).
     */
    public ShardProducer(Redis redis, String stream, int shardCount, StreamCap cap) {
        if (shardCount < 1) {
            throw new IllegalArgumentException("shard count must be >= 1, got " + shardCount);
        }
        if (stream.isBlank() || stream.indexOf('{') >= 0 || stream.indexOf('}') >= 0) {
            throw new IllegalArgumentException("stream name must be non-blank and contain no braces: '" + stream + "'");
        }
        this.redis = Objects.requireNonNull(redis, "redis");
        this.stream = stream;
        this.shardCount = shardCount;
        this.cap = Objects.requireNonNull(cap, "cap");
    }

    /** The shard stream key of shard {@code index}: {@code {orders:3}}. */
    public String shardKey(int index) {
        return "{" + stream + ":" + index + "}";
    }

    /** The shard a key goes to. */
    public int shardOf(String key) {
        return key == null ? Math.floorMod(roundRobin.getAndIncrement(), shardCount) : KeyPartitioner.shardFor(key, shardCount);
    }

    /** Appends one record; returns its entry id. */
    public Future<String> send(String key, Map<String, String> fields) {
        return redis.send(request(new Record(key, fields))).map(Response::toString);
    }

    /** Appends records pipelined on one connection (not atomic); returns their entry ids in order. */
    public Future<List<String>> sendAll(List<Record> records) {
        List<Request> requests = new ArrayList<>(records.size());
        records.forEach(r -> requests.add(request(r)));
        return redis.batch(requests).map(replies -> replies.stream().map(Response::toString).toList());
    }

    private Request request(Record record) {
        Request req = Request.cmd(Command.XADD).arg(shardKey(shardOf(record.key())));
        for (String arg : cap.arguments()) {
            req.arg(arg);
        }
        req.arg("*");
        if (record.key() != null) {
            req.arg(KEY_FIELD).arg(record.key());
        }
        record.fields().forEach((k, v) -> req.arg(k).arg(v));
        return req;
    }
}
