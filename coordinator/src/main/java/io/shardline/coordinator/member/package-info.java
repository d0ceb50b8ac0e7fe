/**
 * The member side of the protocol: {@link io.shardline.coordinator.member.Membership}, a pure reconciliation
 * state machine that turns answers into actions (start, revoke, fence all) and self-fences before its lease ends.
 */
package io.shardline.coordinator.member;
