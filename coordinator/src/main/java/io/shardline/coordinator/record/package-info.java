/**
 * The coordinator's decisions as records: the only way its state changes, persisted so that a new leader
 * rebuilds the same state by replaying them. Built by {@link io.shardline.coordinator.record.Records}.
 */
package io.shardline.coordinator.record;
