package io.shardline.runtime.member;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.shard.MemberShards;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries the shards a member's poller stopped as fenced ({@link MemberShards.Events}) to that member's heartbeat
 * loop. The worker creates one relay, hands it to every listener (the pollers exist before their heartbeat loops)
 * and registers each {@link MemberVerticle} once deployed. A fence reported before its member registered is only
 * logged: that member has not joined yet, so it holds no shard the coordinator knows of.
 *
 * <p>Thread-safe.
 */
public final class FencedShardRelay implements MemberShards.Events {

    /** What a member's heartbeat loop does with a fenced shard. Called from any thread. */
    @FunctionalInterface
    public interface Target {
        void shardFenced(ShardId shard, long ownerEpoch, String reason);
    }

    private static final Logger LOG = LoggerFactory.getLogger(FencedShardRelay.class);

    private final Map<String, Target> targets = new ConcurrentHashMap<>();
    /** Why a member's shard stopped for good, by member id (the first reason); cleared when the member goes. */
    private final Map<String, String> failures = new ConcurrentHashMap<>();

    /** Routes the fences of {@code memberId} to {@code target} from now on. */
    public void register(String memberId, Target target) {
        targets.put(memberId, target);
    }

    /** Stops routing the fences of {@code memberId}. */
    public void unregister(String memberId) {
        targets.remove(memberId);
        failures.remove(memberId);
    }

    /** Why a shard of {@code memberId} stopped for good, if one did ({@link #failed}). */
    public java.util.Optional<String> failure(String memberId) {
        return java.util.Optional.ofNullable(failures.get(memberId));
    }

    @Override
    public void failed(String memberId, ShardId shard, String reason) {
        failures.putIfAbsent(memberId, reason);
    }

    @Override
    public void fenced(String memberId, ShardId shard, long epoch, String reason) {
        Target target = targets.get(memberId);
        if (target == null) {
            LOG.info("Member {}: shard {} (owner epoch {}) fenced before the member's heartbeat loop started: {}",
                    memberId, shard, epoch, reason);
            return;
        }
        target.shardFenced(shard, epoch, reason);
    }
}
