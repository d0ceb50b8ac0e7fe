/**
 * The REST API of a worker (docs/rest.md, docs/rest-api.yaml): the server, authentication and the one error mapping
 * ({@link io.shardline.runtime.rest.RestServerVerticle}, {@link io.shardline.runtime.rest.RestAuth},
 * {@link io.shardline.runtime.rest.RestErrors}), and the listener control plane behind it: configuration and target-state stores in
 * Redis, the applier that keeps running listeners in step with them, and the inter-worker wire.
 */
package io.shardline.runtime.rest;
