/**
 * Live resharding, the leader's side (docs/protocol.md, "The topology record" and "Resharding"): the pure state
 * machine of one stream's shard count ({@link io.shardline.runtime.reshard.Reshard}), its decisions, and the task
 * that runs them on the worker that leads.
 */
package io.shardline.runtime.reshard;
