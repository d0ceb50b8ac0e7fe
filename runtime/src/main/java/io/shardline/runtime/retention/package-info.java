/**
 * Retention that never drops unread records (docs/operations.md, "Retention"): the per-stream policy declared by
 * the listeners that consume a stream ({@link io.shardline.runtime.retention.RetentionPolicy}), the rules two
 * listeners sharing a stream must follow ({@link io.shardline.runtime.retention.SharedStreams}), and the leader's
 * paced trimming task ({@link io.shardline.runtime.retention.RetentionTask}) over an atomic script
 * ({@link io.shardline.runtime.retention.RetentionTrim}).
 */
package io.shardline.runtime.retention;
