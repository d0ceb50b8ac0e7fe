/**
 * One {@code Router} per resource group, mounted by {@link io.shardline.runtime.rest.RestServerVerticle}: each route parses the request
 * and calls one {@link io.shardline.runtime.control.ControlPlane} method.
 */
package io.shardline.runtime.rest.route;
