package io.shardline.api.handler;

import io.shardline.api.config.ConfigValues;

/**
 * What the runtime tells a handler about where it runs, given to {@link Handler#start(HandlerContext)}.
 *
 * <p>One context per handler instance, i.e. per logical member of a listener. Thread-safe.
 */
public interface HandlerContext {

    /** The listener this handler serves (its file name without {@code .properties}). */
    String listenerName();

    /** The logical member running this instance; also its Redis consumer name ({@code <worker>-<listener>-m<i>}). */
    String memberId();

    /** The consumer group (also the Redis consumer-group name on every shard). */
    String group();

    /**
     * The handler's settings: the listener's {@code handler.config.*} keys (prefix removed), parsed and
     * validated against {@link Handler#config()}, defaults filled in.
     */
    ConfigValues config();

    /** Metrics scoped to the listener. */
    HandlerMetrics metrics();
}
