package io.shardline.testkit.worker;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.Importance;
import io.shardline.api.config.Validator;
import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.NonRetriableException;
import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;

/** A test handler: refuses records without the configured field, counts the others. */
public class CheckingHandler implements SyncHandler {

    private String field;
    private HandlerContext context;

    @Override
    public String alias() {
        return "checking";
    }

    @Override
    public ConfigDef config() {
        return new ConfigDef().define("required.field", ConfigType.STRING, null, Validator.nonEmpty(), Importance.HIGH,
                "The field every record must have.", "Checks");
    }

    @Override
    public void start(HandlerContext context) {
        this.context = context;
        this.field = context.config().getString("required.field");
    }

    @Override
    public void handle(StreamRecord record, ShardContext shard) {
        if (record.field(field) == null) {
            throw new NonRetriableException("record " + record.entryId() + " has no field '" + field + "'");
        }
        context.metrics().increment("checked");
    }
}
