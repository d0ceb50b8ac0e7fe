/**
 * The listener control plane (Kafka Connect's "herder"), between the HTTP edge ({@code runtime.rest}) and the
 * listeners it runs: the stored listener configurations and target states in Redis
 * ({@link io.shardline.runtime.control.ListenerConfigStore}, {@link io.shardline.runtime.control.ListenerStateStore},
 * keys in {@link io.shardline.runtime.control.ControlKeys}), the one validator of listener configurations from files,
 * the store and REST ({@link io.shardline.runtime.control.ListenerConfigValidator}; the files are read by
 * {@link io.shardline.runtime.control.ListenerLoader}), the operations behind every route
 * ({@link io.shardline.runtime.control.DefaultControlPlane} and the admin services it delegates to: members, groups, offsets,
 * streams, dead letters), the supervisor and runner that keep this worker's listeners in step with the stored state
 * ({@link io.shardline.runtime.control.ListenerSupervisor}, {@link io.shardline.runtime.control.ListenerRunner},
 * {@link io.shardline.runtime.control.TargetStateApplier}), the inter-worker wire
 * ({@link io.shardline.runtime.control.ControlWire}, {@link io.shardline.runtime.control.ControlEndpoint}) and the
 * cluster view ({@link io.shardline.runtime.control.WorkerClusterView}), and the sampler behind the lag gauges and the
 * listener history ({@link io.shardline.runtime.control.ListenerStatusSampler}). docs/architecture.md, "The runtime's
 * packages".
 */
package io.shardline.runtime.control;
