/**
 * The handler plugin API: what a plugin author implements to process the records of Redis Stream shards.
 *
 * <p>A plugin is a jar (or a folder of jars) on the worker's {@code plugin.path} that lists its handler
 * classes in {@code META-INF/services/io.shardline.api.handler.Handler}. A listener names the handler by
 * its {@link io.shardline.api.handler.Handler#alias() alias} or its fully qualified class name and binds it
 * to streams and a consumer group. The runtime then, for every logical member of the listener:
 * <ol>
 *   <li>creates one handler instance (public no-argument constructor) and calls
 *       {@link io.shardline.api.handler.Handler#start(HandlerContext)} once;</li>
 *   <li>calls {@link io.shardline.api.handler.Handler#onAssigned(ShardContext)} when the member gains a shard,
 *       after the previous owner has been fenced and before any record of that shard is handled;</li>
 *   <li>hands the shard's records, in entry-id order, in batches, to
 *       {@link io.shardline.api.handler.SyncHandler} or {@link io.shardline.api.handler.AsyncHandler};
 *       at most one batch of a shard is in flight, batches of different shards may run in parallel;</li>
 *   <li>acknowledges a record only after the handler returned normally (or after the record was sent
 *       to the dead-letter stream), so delivery is at least once: handlers must tolerate redelivery
 *       (use {@link io.shardline.api.handler.StreamRecord#entryId()} or
 *       {@link io.shardline.api.handler.ShardContext#ownerEpoch()} to make effects idempotent);</li>
 *   <li>calls {@link io.shardline.api.handler.Handler#onRevoked(ShardContext)} when the shard leaves, and
 *       {@link io.shardline.api.handler.Handler#stop()} once at the end.</li>
 * </ol>
 *
 * <p>Plugins compile against this package (and {@code io.shardline.api.config}) with {@code provided}
 * scope; everything else they need they bundle. The JDK, {@code io.shardline.api.*} and SLF4J come from
 * the worker; any other class is loaded from the plugin's own jars first (child-first).
 */
package io.shardline.api.handler;
