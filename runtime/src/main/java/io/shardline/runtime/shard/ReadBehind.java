package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardId;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import java.util.ArrayList;
import java.util.List;

/**
 * The fenced read behind a wake-up read: {@code FCALL shard_read_woken} over the idle shards a blocking {@code XREAD}
 * of {@link WakeUpLoop} watches, sent on the same connection right behind it. Redis runs a client's next command as
 * soon as its blocking command returns, so the shards that got entries are read (fenced by owner and epoch, under the
 * read rule, as {@code shard_read} with {@code >}) in the same instant as the wake-up, and their records reach the
 * member with the wake-up's reply instead of one round trip later (docs/benchmarks.md, "Consumption results").
 *
 * <p>A read behind is a read of the shard in flight: the {@link Port} claims each shard for it (only an idle shard
 * reading new entries, see {@link ShardMachine#claimReadBehind}) and the shard issues no read of its own until the
 * outcome {@link Port#landed landed}. So a shard never has two reads in flight and its records stay in entry-id order.
 * An outcome that never arrives (the connection failed) is unknown: the shard replays its pending entries first.
 *
 * <p>Standalone Redis only (the keys of different shards are in different slots of a cluster). Immutable.
 */
final class ReadBehind {

    /** At most this many shards per read behind: the idle shards that went idle last (the busy ones). */
    static final int MAX_SHARDS = 32;

    /** The member's side: claims idle shards for a read behind and takes each outcome. Member context. */
    interface Port {
        /** Claims {@code shard} for the read behind the next wake-up read; null when it may not be read now. */
        OwnedShard claim(ShardId shard);

        /** The read behind of a claimed shard landed with {@code outcome}; null when its outcome is unknown. */
        void landed(OwnedShard shard, Outcome outcome);
    }

    /**
     * One shard's outcome: {@code page} (a fenced read's result, possibly waiting at a cutover), or nothing after the
     * wake-up id ({@link #NOTHING}), or {@code error} (refused or failed; nothing was read: the shard reads itself).
     */
    record Outcome(ShardCommands.ReadResult page, String error) {
        static final Outcome NOTHING = new Outcome(null, null);

        /** True when records were read into the member's pending list. */
        boolean hasRecords() {
            return page != null && !page.records().isEmpty();
        }
    }

    private final String group;
    private final String member;
    private final int count;
    private final Port port;

    ReadBehind(String group, String member, int count, Port port) {
        this.group = group;
        this.member = member;
        this.count = count;
        this.port = port;
    }

    /** The member's port. */
    Port port() {
        return port;
    }

    /** The call for {@code shards}, each with the wake-up id at {@code afterIds}' same index. */
    Request request(List<OwnedShard> shards, List<String> afterIds) {
        Request req = Request.cmd(Command.FCALL).arg("shard_read_woken").arg(shards.size() * 3);
        for (OwnedShard s : shards) {
            ShardId id = s.shard();
            req.arg(id.key()).arg(id.ownerKey(group)).arg(Fence.routingKey(id));
        }
        req.arg(group).arg(member).arg(count);
        for (int i = 0; i < shards.size(); i++) {
            req.arg(shards.get(i).ownerEpoch()).arg(afterIds.get(i));
        }
        return req;
    }

    /** The outcome of each of {@code shards} from the reply (same order). */
    static List<Outcome> parse(List<OwnedShard> shards, Response reply) {
        List<Outcome> out = new ArrayList<>(shards.size());
        for (int i = 0; i < shards.size(); i++) {
            Response r = reply.get(i);
            if (r == null || r.type() == ResponseType.NUMBER) {
                out.add(Outcome.NOTHING);
            } else if (r.size() == 2 && "E".equals(r.get(0).toString())) {
                out.add(new Outcome(null, r.get(1).toString()));
            } else {
                out.add(new Outcome(ShardCommands.parseRead(shards.get(i).shard(), r), null));
            }
        }
        return out;
    }
}
