/**
 * A logical stream as listeners declare it ({@link io.shardline.runtime.topology.StreamSpec}: name and shard count)
 * and its topology record in Redis ({@code {<stream>:topology}}): its shard count, routing
 * epoch, state and a short history ({@code docs/protocol.md}, "The topology record"). The first listener of a
 * stream creates it; a listener whose shard count disagrees is refused, at start and over REST.
 */
package io.shardline.runtime.topology;
