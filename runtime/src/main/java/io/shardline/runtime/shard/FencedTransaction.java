package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The hot path's fenced ack-and-read without a script: optimistic locking on the shard's owner key, on a
 * connection of its own ({@link ExclusiveConnections}).
 * <ol>
 *   <li>{@code WATCH <owner key> <routing key>}, {@code HMGET <owner key> owner epoch} and
 *       {@code HGETALL <routing key>}, pipelined (one write); a different owner or epoch (or none) ends here with
 *       {@code FENCED ...} (or {@code NOOWNER ...}) after {@code UNWATCH}: nothing was acknowledged or read; a routing
 *       hash with a cutover the group has not passed ends here with {@code null} after {@code UNWATCH}: the caller
 *       takes the script, which enforces the read rule (docs/protocol.md section 8b);</li>
 *   <li>{@code MULTI}, the acknowledgement ({@code XACK}; {@code XACK}+{@code XDEL}; or {@code XACKDEL} on
 *       Redis 8.2+), {@code XREADGROUP ... COUNT n STREAMS <shard> >}, {@code XREVRANGE <shard> + - COUNT 1}
 *       (the wake-up position when nothing new came), {@code EXEC}, pipelined (one write).</li>
 * </ol>
 * {@code EXEC} runs the queued commands only if the owner key was not written since the {@code WATCH}, that
 * is only if the owner and epoch checked in step 1 still hold when the transaction runs (and no cutover was written
 * since the routing hash was read): the same guarantee as
 * the scripted {@code shard_ack_read}, without Redis converting every returned entry to a Lua table and back.
 * An aborted {@code EXEC} (the owner key changed) starts over at step 1, whose check then reports the fence.
 *
 * <p>Stateless; the connection is used by one call at a time.
 */
final class FencedTransaction {

    /** Attempts when {@code EXEC} aborts without the check seeing a new owner (the key was rewritten as it was). */
    static final int MAX_ABORTS = 3;

    private final long commandTimeoutMs;

    FencedTransaction(long commandTimeoutMs) {
        this.commandTimeoutMs = commandTimeoutMs;
    }

    /**
     * Acknowledges {@code ids} (none: read only) and reads up to {@code count} new entries, fenced by owner and
     * epoch. The reply has the same meaning as the scripted read with {@code >}: the cursor is the last id read,
     * or the stream's top id ({@code 0-0} when empty) when nothing new came. Completes with {@code null} (nothing
     * acknowledged or read) when a cutover bounds the group's reads: the scripted {@code shard_ack_read} does those.
     *
     * @param ackMode {@code KEEP}, {@code DEL} or {@code XACKDEL}, as for the script
     */
    Future<ShardCommands.ReadResult> ackAndRead(RedisConnection c, ShardId shard, String group, String member,
                                                long epoch, String ackMode, List<String> ids, int count) {
        // One timeout for the whole exchange (a timer per command costs more than the commands on the client);
        // a timed-out connection is closed by its ExclusiveConnections, so nothing late is read from it.
        return attempt(c, shard, group, member, epoch, ackMode, ids, count, 1)
                .timeout(commandTimeoutMs, TimeUnit.MILLISECONDS);
    }

    private Future<ShardCommands.ReadResult> attempt(RedisConnection c, ShardId shard, String group, String member,
                                                     long epoch, String ackMode, List<String> ids, int count, int attempt) {
        // Each step's commands go out as one pipelined write (RedisConnection.batch: one buffer, one future for the
        // step), in the order listed; a command failed (refused at queue time, say) fails the step.
        String ownerKey = shard.ownerKey(group);
        String routingKey = Fence.routingKey(shard);
        return c.batch(List.of(Request.cmd(Command.WATCH).arg(ownerKey).arg(routingKey),
                Request.cmd(Command.HMGET).arg(ownerKey).arg("owner").arg("epoch"),
                Request.cmd(Command.HGETALL).arg(routingKey))).compose(checked -> {
                    String refusal = refusal(shard, checked.get(1), member, epoch);
                    if (refusal != null) {
                        return c.send(Request.cmd(Command.UNWATCH)).transform(ar -> Future.failedFuture(refusal));
                    }
                    if (CutoverRouting.boundedByCutover(checked.get(2), group)) {
                        return c.send(Request.cmd(Command.UNWATCH)).map(ok -> (ShardCommands.ReadResult) null);
                    }
                    List<Request> queued = new ArrayList<>(6);
                    queued.add(Request.cmd(Command.MULTI));
                    int acks = queueAck(queued, shard, group, ackMode, ids);
                    queued.add(Request.cmd(Command.XREADGROUP).arg("GROUP").arg(group).arg(member).arg("COUNT").arg(count)
                            .arg("STREAMS").arg(shard.key()).arg(">"));
                    queued.add(Request.cmd(Command.XREVRANGE).arg(shard.key()).arg("+").arg("-").arg("COUNT").arg(1));
                    queued.add(Request.cmd(Command.EXEC));
                    return c.batch(queued).compose(replies -> {
                        Response exec = replies.get(replies.size() - 1);
                        if (exec == null) {
                            if (attempt >= MAX_ABORTS) {
                                return Future.failedFuture("WATCH of " + ownerKey + " aborted the transaction " + attempt
                                        + " times while the owner stayed " + member + " epoch " + epoch);
                            }
                            return attempt(c, shard, group, member, epoch, ackMode, ids, count, attempt + 1);
                        }
                        for (int i = 0; i < exec.size(); i++) {
                            Response r = exec.get(i);
                            if (r != null && r.type() == ResponseType.ERROR) {
                                return Future.failedFuture(r.toString());
                            }
                        }
                        return Future.succeededFuture(parse(shard, exec.get(acks), exec.get(acks + 1)));
                    });
                });
    }

    /** Queues the acknowledgement commands; returns how many replies they add to {@code EXEC}'s. */
    private static int queueAck(List<Request> queued, ShardId shard, String group, String ackMode, List<String> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        if ("XACKDEL".equals(ackMode)) {
            Request req = Request.cmd(Command.create("XACKDEL")).arg(shard.key()).arg(group).arg("IDS").arg(ids.size());
            ids.forEach(req::arg);
            queued.add(req);
            return 1;
        }
        Request xack = Request.cmd(Command.XACK).arg(shard.key()).arg(group);
        ids.forEach(xack::arg);
        queued.add(xack);
        if (!"DEL".equals(ackMode)) {
            return 1;
        }
        Request xdel = Request.cmd(Command.XDEL).arg(shard.key());
        ids.forEach(xdel::arg);
        queued.add(xdel);
        return 2;
    }

    /** The script's refusal message for the owner hash read, or null when {@code member} at {@code epoch} owns it. */
    static String refusal(ShardId shard, Response owner, String member, long epoch) {
        Response o = owner == null ? null : owner.get(0);
        Response e = owner == null ? null : owner.get(1);
        if (o == null) {
            return "NOOWNER " + shard.key() + " has no owner";
        }
        String recordedEpoch = e == null ? "nil" : e.toString();
        if (!o.toString().equals(member) || !recordedEpoch.equals(Long.toString(epoch))) {
            return "FENCED " + shard.key() + " owner=" + o + " epoch=" + recordedEpoch;
        }
        return null;
    }

    private static ShardCommands.ReadResult parse(ShardId shard, Response read, Response top) {
        Response entries = null;
        if (read != null && read.size() > 0) {
            entries = read.isMap() ? read.get(shard.key()) : read.get(0).get(1);
        }
        if (entries == null || entries.size() == 0) {
            String topId = top != null && top.size() > 0 ? top.get(0).get(0).toString() : "0-0";
            return new ShardCommands.ReadResult(topId, List.of());
        }
        List<StreamRecord> records = new ArrayList<>(entries.size());
        for (Response entry : entries) {
            records.add(new StreamRecord(shard, entry.get(0).toString(), ShardCommands.fields(entry.get(1)), 1));
        }
        return new ShardCommands.ReadResult(records.get(records.size() - 1).entryId(), records);
    }
}
