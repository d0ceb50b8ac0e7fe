/**
 * The worker: its configuration ({@link io.shardline.runtime.config.WorkerConfig}, documented in
 * docs/configuration.md by {@link io.shardline.runtime.worker.WorkerConfigDocs}) and its lifecycle.
 */
package io.shardline.runtime.worker;
