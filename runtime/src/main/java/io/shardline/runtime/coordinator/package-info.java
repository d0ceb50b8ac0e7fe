/**
 * Hosting the pure group coordinator on the leader worker: {@link io.shardline.runtime.coordinator.CoordinatorVerticle}
 * (one Vert.x context; persist with CAS under the leader epoch, write owner keys, then answer; NOT_COORDINATOR
 * on other workers), the graceful hand-over of a stopping leader to its successor
 * ({@link io.shardline.runtime.coordinator.LeaderHandOver}) and the event-bus wire format
 * {@link io.shardline.runtime.coordinator.CoordinatorWire}.
 */
package io.shardline.runtime.coordinator;
