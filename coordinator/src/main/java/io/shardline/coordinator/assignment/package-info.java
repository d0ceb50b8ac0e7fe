/**
 * Pure computations of the coordinator: the target assignment from the group's assignor
 * ({@link io.shardline.coordinator.assignment.TargetAssignmentBuilder}), the revoke-before-assign step of one
 * member ({@link io.shardline.coordinator.assignment.CurrentAssignmentBuilder}) and the one place epochs and
 * ownership reports are checked ({@link io.shardline.coordinator.assignment.EpochValidator}).
 */
package io.shardline.coordinator.assignment;
