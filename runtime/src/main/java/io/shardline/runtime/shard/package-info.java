/**
 * Shard consumption of one member: the member's API and driver ({@link io.shardline.runtime.shard.MemberShards}), the
 * per-shard state machine it drives ({@link io.shardline.runtime.shard.ShardMachine}: each shard's
 * {@link io.shardline.runtime.shard.ShardPhase} x {@link io.shardline.runtime.shard.ShardActivity} behind one gate,
 * the ready queue over the member's local workers, decisions returned as
 * {@link io.shardline.runtime.shard.ShardAction}s: takeover, fenced read, handler call, dead letters, fenced
 * acknowledgement), the wake-up reads of idle shards ({@link io.shardline.runtime.shard.WakeUps}) and the fenced Redis
 * calls ({@link io.shardline.runtime.shard.ShardCommands}, each under a {@link io.shardline.runtime.shard.Fence}).
 * docs/architecture.md, "A record's way".
 */
package io.shardline.runtime.shard;
