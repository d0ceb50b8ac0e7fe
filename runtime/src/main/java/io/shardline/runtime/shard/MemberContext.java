package io.shardline.runtime.shard;

import io.shardline.api.config.ConfigValues;
import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.HandlerMetrics;
import java.util.Objects;

/**
 * The {@link HandlerContext} of one member's handler instance. Immutable.
 *
 * @param listenerName the listener
 * @param memberId the logical member (also the Redis consumer name)
 * @param group the consumer group
 * @param config the handler's parsed settings
 * @param metrics the handler's metrics, scoped to the listener
 */
public record MemberContext(String listenerName, String memberId, String group, ConfigValues config, HandlerMetrics metrics)
        implements HandlerContext {

    /** Validates the fields. */
    public MemberContext {
        Objects.requireNonNull(listenerName, "listenerName");
        Objects.requireNonNull(memberId, "memberId");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(metrics, "metrics");
    }
}
