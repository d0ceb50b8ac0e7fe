/**
 * The topology record of each logical stream in Redis ({@code {<stream>:topology}}): its shard count, routing
 * epoch, state and a short history ({@code docs/protocol.md}, "The topology record"). The first listener of a
 * stream creates it; a listener whose shard count disagrees is refused, at start and over REST.
 */
package io.shardline.runtime.topology;
