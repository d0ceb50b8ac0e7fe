package io.shardline.examples.template;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.Importance;
import io.shardline.api.config.Validator;
import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.NonRetriableException;
import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin template's handler: checks that every record has the configured fields, counts the good
 * ones and logs one line per {@code log.every} of them; a record missing a field can never succeed, so it
 * is refused with {@link NonRetriableException} and goes straight to the listener's dead-letter stream.
 * Replace the body of {@link #handle} with your own processing.
 *
 * <p>Rules every handler follows (see {@link io.shardline.api.handler.Handler}): a public no-argument
 * constructor and a line in {@code META-INF/services/io.shardline.api.handler.Handler}; one instance per
 * logical member, whose calls for different shards may run at the same time (so state is thread-safe);
 * records of one shard arrive in order, at least once (so processing is idempotent: the shard and entry
 * id identify a record); throw to have a record retried, {@link NonRetriableException} to skip the retries.
 */
public class TemplateHandler implements SyncHandler {

    static final String REQUIRED_FIELDS_CONFIG = "required.fields";
    static final String LOG_EVERY_CONFIG = "log.every";

    private static final Logger LOG = LoggerFactory.getLogger(TemplateHandler.class);

    private final AtomicLong handled = new AtomicLong();
    private List<String> requiredFields;
    private int logEvery;
    private HandlerContext context;

    /** The name listener files use: {@code handler = template}. Rename it with the plugin. */
    @Override
    public String alias() {
        return "template";
    }

    @Override
    public String description() {
        return "Template: checks required fields, counts and logs records.";
    }

    /** The handler's settings ({@code handler.config.<key>} in a listener file), validated before start. */
    @Override
    public ConfigDef config() {
        return new ConfigDef()
                .define(REQUIRED_FIELDS_CONFIG, ConfigType.LIST, List.of(), Validator.any(), Importance.HIGH,
                        "Fields every record must have (comma-separated); a record without one is dead-lettered.", "Checks")
                .define(LOG_EVERY_CONFIG, ConfigType.INT, 1000, Validator.between(1, 100_000_000), Importance.LOW,
                        "Log one line per this many handled records.", "Logging");
    }

    @Override
    public void start(HandlerContext context) {
        this.context = context;
        this.requiredFields = context.config().getList(REQUIRED_FIELDS_CONFIG);
        this.logEvery = context.config().getInt(LOG_EVERY_CONFIG);
        context.metrics().gauge("records.seen", handled::get);
        LOG.info("template handler of listener {} (member {}) started; required fields {}", context.listenerName(),
                context.memberId(), requiredFields);
    }

    @Override
    public void onAssigned(ShardContext shard) {
        LOG.info("template: shard {} assigned (fencing token {})", shard.shard(), shard.fencingToken());
    }

    @Override
    public void handle(StreamRecord record, ShardContext shard) {
        for (String field : requiredFields) {
            if (record.field(field) == null) {
                throw new NonRetriableException("record " + record.shard() + "/" + record.entryId()
                        + " has no field '" + field + "'");
            }
        }
        long n = handled.incrementAndGet();
        context.metrics().increment("records");
        if (n % logEvery == 0) {
            LOG.info("template {}: {} records handled; last {} {} key={}", context.listenerName(), n, record.shard(),
                    record.entryId(), record.key().orElse("-"));
        }
    }
}
