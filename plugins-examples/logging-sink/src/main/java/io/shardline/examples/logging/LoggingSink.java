package io.shardline.examples.logging;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.Importance;
import io.shardline.api.config.Validator;
import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.HandlerMetrics;
import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sink that logs records (through the worker's SLF4J logging): every record, or one line per
 * {@code log.every} records with the running count, so it also serves as a cheap "is data flowing" probe.
 * Counts records in the handler metric {@code records}. Thread-safe.
 */
public class LoggingSink implements SyncHandler {

    static final String LOG_EVERY_CONFIG = "log.every";
    static final String FIELDS_CONFIG = "log.fields";

    private static final Logger LOG = LoggerFactory.getLogger(LoggingSink.class);

    private final AtomicLong seen = new AtomicLong();
    private int every;
    private boolean fields;
    private String listener;
    private HandlerMetrics metrics;

    @Override
    public String alias() {
        return "logging-sink";
    }

    @Override
    public String description() {
        return "Logs records (every record or every n-th) and counts them.";
    }

    @Override
    public ConfigDef config() {
        return new ConfigDef()
                .define(LOG_EVERY_CONFIG, ConfigType.INT, 1, Validator.between(1, 100_000_000), Importance.MEDIUM,
                        "Log one line per this many records (1 = every record).", "Logging")
                .define(FIELDS_CONFIG, ConfigType.BOOLEAN, true, Validator.any(), Importance.LOW,
                        "Include the record's fields in the line.", "Logging");
    }

    @Override
    public void start(HandlerContext context) {
        every = context.config().getInt(LOG_EVERY_CONFIG);
        fields = context.config().getBoolean(FIELDS_CONFIG);
        listener = context.listenerName();
        metrics = context.metrics();
        metrics.gauge("records.seen", seen::get);
        LOG.info("logging-sink of listener {} (member {}) started: one line per {} record(s)", listener, context.memberId(), every);
    }

    @Override
    public void onAssigned(ShardContext shard) {
        LOG.info("logging-sink {}: assigned shard {} (fencing token {})", listener, shard.shard(), shard.fencingToken());
    }

    @Override
    public void onRevoked(ShardContext shard) {
        LOG.info("logging-sink {}: shard {} revoked", listener, shard.shard());
    }

    @Override
    public void handleBatch(List<StreamRecord> records, ShardContext shard) {
        for (StreamRecord record : records) {
            handle(record, shard);
        }
        metrics.increment("records", records.size());
    }

    @Override
    public void handle(StreamRecord record, ShardContext shard) {
        long n = seen.incrementAndGet();
        if (n % every == 0) {
            LOG.info("{} {} #{} key={} {}", listener, record.shard(), n, record.key().orElse("-"),
                    fields ? record.entryId() + " " + record.fields() : record.entryId());
        }
    }
}
