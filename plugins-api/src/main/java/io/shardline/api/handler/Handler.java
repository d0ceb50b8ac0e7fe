package io.shardline.api.handler;

import io.shardline.api.config.ConfigDef;

/**
 * A handler plugin: user code that processes the records of the shards a member owns.
 *
 * <p>Implement {@link SyncHandler} (blocking code, run on a worker thread) or {@link AsyncHandler}
 * (non-blocking code returning a {@link java.util.concurrent.CompletionStage}); this base interface holds
 * what both share. An implementation is a public class with a public no-argument constructor, listed in
 * {@code META-INF/services/io.shardline.api.handler.Handler}.
 *
 * <p>Lifecycle and threading (per instance, i.e. per logical member):
 * <ul>
 *   <li>{@link #start(HandlerContext)} once, before anything else; {@link #stop()} once, last, even when
 *       {@code start} threw;</li>
 *   <li>{@link #onAssigned(ShardContext)} before the first batch of a shard, {@link #onRevoked(ShardContext)}
 *       after its last batch (also when the shard was lost to fencing: then the records in flight were
 *       not acknowledged and another member will handle them again);</li>
 *   <li>calls for one shard never overlap and follow the shard's entry-id order; calls for different
 *       shards may run at the same time on different threads (up to the listener's
 *       {@code max.concurrency}), so shared state in the instance must be thread-safe.</li>
 * </ul>
 * Every call runs with the plugin's class loader as the thread context class loader.
 *
 * <p>Failure: a call that throws (or whose stage completes exceptionally, or that runs past
 * {@code handler.timeout.ms}) is retried with exponential backoff up to {@code max.attempts}; after the
 * last attempt the record goes to the listener's dead-letter stream and is acknowledged. Throw
 * {@link NonRetriableException} to skip the retries; any other exception (including
 * {@link RetriableException}) is retried. An exception from {@code start} fails the member (it is
 * reported and retried by the runtime); one from the shard callbacks is logged and ignored.
 */
public interface Handler {

    /**
     * The short name listeners may use instead of the class name (e.g. {@code logging-sink}); by
     * default the simple class name. Must be unique on the worker.
     */
    default String alias() {
        return getClass().getSimpleName();
    }

    /** A one-line description for listings. */
    default String description() {
        return "";
    }

    /** The plugin's version, shown in plugin listings; by default the jar's Implementation-Version. */
    default String version() {
        String v = getClass().getPackage() == null ? null : getClass().getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }

    /**
     * The settings this handler accepts, declared with types, defaults, validators and docs. The runtime
     * validates the listener's {@code handler.config.*} keys against it (errors name the listener file,
     * line, key and value) and passes the result to {@link #start(HandlerContext)}. Default: no settings.
     */
    default ConfigDef config() {
        return new ConfigDef();
    }

    /** Called once before any other call. Open clients and read settings here. */
    default void start(HandlerContext context) throws Exception {
    }

    /** Called when this member gains a shard, before the shard's first batch. */
    default void onAssigned(ShardContext shard) throws Exception {
    }

    /** Called when this member gives up a shard (released or fenced), after its last batch. */
    default void onRevoked(ShardContext shard) throws Exception {
    }

    /** Called once at the end; release resources here. */
    default void stop() throws Exception {
    }
}
