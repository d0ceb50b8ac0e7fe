/**
 * Routing under the stream topology (docs/protocol.md, section 8b): {@link io.shardline.producer.routing.ShardRouting}
 * calls the {@code shardline_routing} Redis function library (the flip of a shard to a routing epoch and the
 * epoch-checked {@code XADD}) over {@link io.shardline.producer.routing.RoutingRedis}, which the producer and the
 * worker runtime both implement.
 */
package io.shardline.producer.routing;
