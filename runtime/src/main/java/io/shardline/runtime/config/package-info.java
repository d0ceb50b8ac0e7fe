/**
 * What every layer of a worker reads about it: its configuration ({@link io.shardline.runtime.config.WorkerConfig},
 * every key of {@code worker.properties}, documented in docs/configuration.md) and the build's
 * {@link io.shardline.runtime.config.Version}. Below the REST edge, the control plane and the worker that read
 * them; above the cluster, Redis and retention settings it is made of. docs/architecture.md, "The runtime's packages".
 */
package io.shardline.runtime.config;
