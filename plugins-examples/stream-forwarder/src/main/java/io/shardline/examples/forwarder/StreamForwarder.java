package io.shardline.examples.forwarder;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.Importance;
import io.shardline.api.config.Validator;
import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.HandlerMetrics;
import io.shardline.api.handler.RetriableException;
import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Forwards every record of shard {@code i} of the source stream to shard {@code i} of a target stream
 * ({@code {<target>:<i>}}), keeping the shard, the order and the entry id: each record is appended with
 * {@code XADD {<target>:<i>} <source entry id> ...}. That makes it idempotent under redelivery without
 * any state: Redis refuses an id not above the target's top id, so a record forwarded before (by this
 * member, or by a fenced previous owner still running) is never appended twice, and a stale owner can
 * never append behind records the new owner already forwarded. Thread-safe.
 */
public class StreamForwarder implements SyncHandler {

    static final String REDIS_URL_CONFIG = "redis.url";
    static final String TARGET_CONFIG = "target.stream";
    static final String TIMEOUT_CONFIG = "timeout.ms";

    private String target;
    private RespConnection redis;
    private HandlerMetrics metrics;

    @Override
    public String alias() {
        return "stream-forwarder";
    }

    @Override
    public String description() {
        return "Copies each shard to the same shard of another stream, idempotently (same entry ids).";
    }

    @Override
    public ConfigDef config() {
        return new ConfigDef()
                .define(REDIS_URL_CONFIG, ConfigType.STRING, "redis://127.0.0.1:6379", Validator.nonEmpty(), Importance.HIGH,
                        "The Redis the target stream lives on (redis://host:port).", "Target")
                .defineRequired(TARGET_CONFIG, ConfigType.STRING, Validator.custom("a stream name without braces",
                                v -> v.toString().matches("[^{}]+") ? java.util.Optional.empty()
                                        : java.util.Optional.of("must not contain braces")),
                        Importance.HIGH, "The target logical stream; shard i goes to {<target>:i}.", "Target")
                .define(TIMEOUT_CONFIG, ConfigType.INT, 5_000, Validator.between(1, 600_000), Importance.LOW,
                        "Connect and read timeout towards Redis.", "Target");
    }

    @Override
    public void start(HandlerContext context) {
        target = context.config().getString(TARGET_CONFIG);
        redis = new RespConnection(context.config().getString(REDIS_URL_CONFIG), context.config().getInt(TIMEOUT_CONFIG));
        metrics = context.metrics();
    }

    @Override
    public void handle(StreamRecord record, ShardContext shard) {
        handleBatch(List.of(record), shard);
    }

    @Override
    public void handleBatch(List<StreamRecord> records, ShardContext shard) {
        String key = "{" + target + ":" + shard.shard().index() + "}";
        List<List<String>> commands = new ArrayList<>(records.size());
        for (StreamRecord record : records) {
            List<String> xadd = new ArrayList<>();
            xadd.add("XADD");
            xadd.add(key);
            xadd.add(record.entryId());
            for (Map.Entry<String, String> field : record.fields().entrySet()) {
                xadd.add(field.getKey());
                xadd.add(field.getValue());
            }
            if (record.fields().isEmpty()) {
                xadd.add("__empty");
                xadd.add("");
            }
            commands.add(xadd);
        }
        List<Object> replies;
        try {
            replies = redis.pipeline(commands);
        } catch (IOException e) {
            throw new RetriableException("cannot reach the target Redis: " + e.getMessage(), e);
        }
        int forwarded = 0;
        int duplicates = 0;
        for (Object reply : replies) {
            if (reply instanceof RespConnection.ErrorReply error) {
                if (error.message().contains("equal or smaller")) {
                    duplicates++; // forwarded before: idempotent skip
                    continue;
                }
                throw new RetriableException("XADD to " + key + " failed: " + error.message());
            }
            forwarded++;
        }
        metrics.increment("forwarded", forwarded);
        metrics.increment("duplicates.skipped", duplicates);
    }

    @Override
    public void stop() {
        if (redis != null) {
            redis.close();
        }
    }
}
