/**
 * The wire contract between members and the coordinator (see {@code docs/protocol.md}): heartbeat and leave
 * requests and answers, revoke reports, error codes and the exceptions the core maps to them.
 */
package io.shardline.coordinator.protocol;
