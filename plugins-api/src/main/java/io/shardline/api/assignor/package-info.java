/**
 * The assignor SPI: {@link io.shardline.api.assignor.Assignor} and the immutable values it reads
 * ({@link io.shardline.api.assignor.GroupSpec}, {@link io.shardline.api.assignor.ShardDescriber}) and returns
 * ({@link io.shardline.api.assignor.GroupAssignment}). JDK only.
 */
package io.shardline.api.assignor;
