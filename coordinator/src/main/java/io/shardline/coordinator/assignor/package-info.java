/**
 * The built-in assignors, exactly Kafka's algorithms (docs/assignors.md): {@link io.shardline.coordinator.assignor.RangeAssignor},
 * {@link io.shardline.coordinator.assignor.RoundRobinAssignor}, {@link io.shardline.coordinator.assignor.StickyAssignor} and
 * {@link io.shardline.coordinator.assignor.CooperativeStickyAssignor}, found by name through
 * {@link io.shardline.coordinator.assignor.AssignorRegistry}. The sticky pair share a constrained path for identical subscriptions
 * ({@code ConstrainedAssignmentBuilder}) and a general one ({@code GeneralAssignmentBuilder}, with {@code MoveReducer} and
 * {@code MoveCycles}); racks are handled by {@code RackMap} and {@code RackQueues}. Pure and deterministic: the same problem
 * gives the same assignment.
 */
package io.shardline.coordinator.assignor;
