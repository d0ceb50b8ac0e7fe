/**
 * Shard consumption of one member: the shards it owns ({@link io.shardline.runtime.shard.MemberShards}), their scheduling over the
 * member's local workers ({@link io.shardline.runtime.shard.ShardScheduler}) and steps ({@link io.shardline.runtime.shard.ShardSteps}:
 * takeover, fenced read, handler call, dead letters, fenced acknowledgement), the wake-up reads of idle shards
 * ({@link io.shardline.runtime.shard.WakeUps}) and the fenced Redis calls ({@link io.shardline.runtime.shard.ShardCommands}).
 * docs/architecture.md, "A record's way".
 */
package io.shardline.runtime.shard;
