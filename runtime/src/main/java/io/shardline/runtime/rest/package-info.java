/**
 * The HTTP edge of a worker (docs/rest.md, docs/rest-api.yaml): the server, authentication and the one error mapping
 * ({@link io.shardline.runtime.rest.RestServerVerticle}, {@link io.shardline.runtime.rest.RestAuth},
 * {@link io.shardline.runtime.rest.RestErrors}), the routes ({@code route}), the JSON entities ({@code entity}) and
 * the web console ({@code ui}). Every route parses its request and calls one operation of the control plane
 * ({@link io.shardline.runtime.control.ControlPlane}); nothing here reaches Redis or the cluster itself.
 */
package io.shardline.runtime.rest;
