package io.shardline.runtime.retention;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.ConfigValues;
import io.shardline.api.config.Importance;
import io.shardline.api.config.Validator;

/**
 * The worker keys that pace the leader's retention task: one tick every {@code intervalMs}, at most
 * {@code shardsPerTick} shards trimmed per tick one after the other (one Redis script in flight at a time), at
 * most {@code trimBudget} entries removed per shard and script. A cluster of 100,000 shards at the defaults is
 * gone through in 1,000 ticks, with one script call in flight. Immutable.
 *
 * @param intervalMs the time between two ticks
 * @param shardsPerTick the shards trimmed per tick
 * @param trimBudget the most entries one script call removes from a shard
 */
public record RetentionSettings(long intervalMs, int shardsPerTick, int trimBudget) {

    public static final String INTERVAL_CONFIG = "retention.interval.ms";
    public static final String SHARDS_PER_TICK_CONFIG = "retention.shards.per.tick";
    public static final String TRIM_BUDGET_CONFIG = "retention.trim.max.entries";

    /** Validates. */
    public RetentionSettings {
        if (intervalMs < 1 || shardsPerTick < 1 || trimBudget < 1) {
            throw new IllegalArgumentException("retention pacing must be positive");
        }
    }

    /** Adds the retention keys to the worker definition. */
    public static void define(ConfigDef def) {
        String group = "Retention";
        def.define(INTERVAL_CONFIG, ConfigType.LONG, 1_000L, Validator.between(10, 3_600_000), Importance.LOW,
                        "How often the leader trims the next shards of the streams that have a retention "
                                + "(retention.max.length or retention.max.age.ms of a listener).", group)
                .define(SHARDS_PER_TICK_CONFIG, ConfigType.INT, 100, Validator.between(1, 100_000), Importance.LOW,
                        "Shards the leader trims per tick, one script call at a time: the bound on retention's Redis "
                                + "work. A stream of N shards is trimmed once every N / this ticks.", group)
                .define(TRIM_BUDGET_CONFIG, ConfigType.INT, 10_000, Validator.between(1, 1_000_000), Importance.LOW,
                        "The most entries one trim removes from one shard; a shard further over its retention is "
                                + "trimmed further on its next turn.", group);
    }

    /** The settings of a parsed worker configuration. */
    public static RetentionSettings from(ConfigValues values) {
        return new RetentionSettings(values.getLong(INTERVAL_CONFIG), values.getInt(SHARDS_PER_TICK_CONFIG),
                values.getInt(TRIM_BUDGET_CONFIG));
    }
}
