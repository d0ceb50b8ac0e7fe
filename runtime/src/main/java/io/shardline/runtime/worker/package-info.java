/**
 * The worker: its start and stop ({@link io.shardline.runtime.worker.Worker}, which wires the packages below it
 * together), what it runs besides its listeners ({@link io.shardline.runtime.worker.ControlPlaneHost}: the REST
 * server, this worker's control endpoint, the status sampler, JMX, the leader's retention task), the documentation
 * of its configuration ({@link io.shardline.runtime.worker.WorkerConfigDocs}, which renders docs/configuration.md
 * from {@link io.shardline.runtime.config.WorkerConfig} and the listener keys) and its pid file.
 */
package io.shardline.runtime.worker;
