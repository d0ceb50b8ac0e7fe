package io.shardline.runtime.listener;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.Importance;
import io.shardline.api.config.Validator;
import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A classpath test handler with its own settings; records "<prefix><member>:<entry id>" per handled record. */
public class ConfiguredHandler implements SyncHandler {

    static final List<String> HANDLED = new CopyOnWriteArrayList<>();
    private String prefix;

    @Override
    public String alias() {
        return "configured";
    }

    @Override
    public ConfigDef config() {
        return new ConfigDef()
                .defineRequired("prefix", ConfigType.STRING, Validator.nonEmpty(), Importance.HIGH, "Prefix of recorded ids.", "")
                .define("limit", ConfigType.INT, 5, Validator.between(1, 10), Importance.LOW, "A bounded number.", "")
                .define("password", ConfigType.PASSWORD, null, Validator.any(), Importance.LOW, "A secret.", "");
    }

    @Override
    public void start(HandlerContext context) {
        prefix = context.config().getString("prefix") + context.memberId() + ":";
    }

    @Override
    public void handle(StreamRecord record, ShardContext shard) {
        HANDLED.add(prefix + record.entryId());
    }
}
