/**
 * The group protocol as pure, deterministic code: built-in assignors, the coordinator state machine,
 * member-side reconciliation, and the records a host persists to the group log (docs/protocol.md, section 8).
 * No I/O, no threads, no clock of its own: time is an argument and randomness is injected, which is what makes
 * the protocol testable by simulation.
 */
package io.shardline.coordinator;
