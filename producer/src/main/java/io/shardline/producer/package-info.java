/**
 * Producing to sharded streams: {@link io.shardline.producer.KeyPartitioner} maps a record key to a shard
 * exactly as Kafka's default partitioner maps it to a partition, and {@link io.shardline.producer.ShardProducer}
 * appends records to the shard stream keys {@code {<stream>:<i>}} with the key in the {@code __key} field, under the
 * stream's topology and routing epoch ({@link io.shardline.producer.routing}). Depends on the Vert.x Redis client
 * only (not on the Shardline runtime).
 */
package io.shardline.producer;
