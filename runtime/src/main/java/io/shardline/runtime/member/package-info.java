/**
 * The member side on a worker: {@link io.shardline.runtime.member.MemberVerticle} runs one logical member's
 * heartbeat loop, lease and self-fencing (the pure {@code Membership}) and drives its shards through
 * {@link io.shardline.runtime.member.MemberShardsPort} (docs/architecture.md, "A heartbeat's way").
 */
package io.shardline.runtime.member;
