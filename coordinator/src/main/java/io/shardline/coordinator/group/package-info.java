/**
 * A group's state on the coordinator: {@link io.shardline.coordinator.group.Group} (mutated only by replaying
 * records), immutable {@link io.shardline.coordinator.group.Member}s with their
 * {@link io.shardline.coordinator.group.MemberState}, the shard owner table, and the read model REST serves.
 */
package io.shardline.coordinator.group;
