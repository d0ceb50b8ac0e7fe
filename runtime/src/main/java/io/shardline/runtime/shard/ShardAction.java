package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import java.util.List;

/**
 * A decision of the {@link ShardMachine}, carried out by its driver ({@link MemberShards}): a fenced Redis command,
 * a handler call, a wake-up registration or a notification. The result of each call goes back to the machine as an
 * event ({@code ShardMachine.takeoverDone}, {@code readDone}, ...), which returns the next decisions. Immutable
 * values; the shard they name is the ownership they were decided for (a stale one is ignored by the machine).
 */
sealed interface ShardAction {

    /** Call the handler's {@code onAssigned}; then {@code ShardMachine.assigned}. */
    record Assign(OwnedShard shard) implements ShardAction {
    }

    /** One page of the fenced takeover sweep from {@code cursor}; then {@code takeoverDone} or {@code redisFailed}. */
    record Takeover(OwnedShard shard, String cursor) implements ShardAction {
    }

    /**
     * A fenced read from {@code from} ({@code >} for new entries, else a cursor in the member's pending list); by the
     * one-round-trip script when {@code script}. Then {@code readDone} or {@code redisFailed}.
     */
    record Read(OwnedShard shard, String from, boolean script) implements ShardAction {
    }

    /**
     * Look whether the group's barrier at the cutover of {@code epoch} is released on the shard (its routing hash:
     * {@code released:<group> >= epoch}, or the {@code cutover:<epoch>} field gone); then {@code cutoverPolled} or
     * {@code redisFailed}.
     */
    record PollCutover(OwnedShard shard, long epoch) implements ShardAction {
    }

    /** Hand {@code records} to the handler (checking the lease on the handler thread); then {@code handled}. */
    record Handle(OwnedShard shard, List<StreamRecord> records) implements ShardAction {
    }

    /** Fenced acknowledgement of {@code ids}; then {@code acked} or {@code redisFailed}. */
    record Ack(OwnedShard shard, List<String> ids) implements ShardAction {
    }

    /** Fenced acknowledgement of {@code ids} and read of new entries in one call; then {@code ackAndReadDone}. */
    record AckAndRead(OwnedShard shard, List<String> ids, boolean keepingUp) implements ShardAction {
    }

    /** Write {@code record} to the dead-letter stream; then {@code deadLettered} or {@code deadLetterFailed}. */
    record DeadLetter(OwnedShard shard, StreamRecord record, int attempts, Throwable error) implements ShardAction {
    }

    /** Create the shard's consumer group again at 0 (Redis lost it); then {@code groupEnsured}. */
    record EnsureGroup(OwnedShard shard) implements ShardAction {
    }

    /** Wait for entries after {@code afterId} on the member's wake-up connections; {@code woken} when some come. */
    record Watch(ShardId shard, String afterId) implements ShardAction {
    }

    /** Stop waiting for new entries of {@code shard}. */
    record Unwatch(ShardId shard) implements ShardAction {
    }

    /** Call the handler's {@code onRevoked}, then complete the shard's release (if one was asked for). */
    record Revoke(OwnedShard shard) implements ShardAction {
    }

    /** Tell the member's owner that the shard was fenced ({@code MemberShards.Events#fenced}). */
    record Fenced(OwnedShard shard, String reason) implements ShardAction {
    }

    /** Tell the member's owner that the shard stopped on an error no retry fixes ({@code Events#failed}). */
    record Failed(OwnedShard shard, String reason) implements ShardAction {
    }

    /** Tell the leader that the group acknowledged the shard up to the cutover it watched ({@code Events#drained}). */
    record Drained(OwnedShard shard) implements ShardAction {
    }
}
