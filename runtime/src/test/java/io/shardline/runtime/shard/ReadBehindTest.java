package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.ShardTesting.add;
import static io.shardline.runtime.shard.ShardTesting.await;
import static io.shardline.runtime.shard.ShardTesting.blockedClients;
import static io.shardline.runtime.shard.ShardTesting.on;
import static io.shardline.runtime.shard.ShardTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.handler.HandlerMetrics;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The read behind a wake-up read on a real Redis: the shard that got an entry is read, fenced, into the member's pending
 * list with the wake-up's reply; a shard with nothing new is not read; a shard whose owner changed is refused and
 * nothing is read for it.
 */
@RedisTest
class ReadBehindTest {

    private static final long BLOCK_MS = 60_000;
    private static final String G = "g";

    private Vertx vertx;
    private VertxShardRedis redis;
    private ShardCommands commands;

    @BeforeEach
    void setUp(RedisServer server) {
        vertx = Vertx.vertx();
        redis = VertxShardRedis.create(vertx, server.uri(), 4, 10_000);
        commands = new ShardCommands(redis);
        await(redis.send(Request.cmd(Command.FLUSHALL)));
        await(commands.loadLibrary());
    }

    @AfterEach
    void tearDown() {
        redis.close();
        await(vertx.close());
    }

    @Test
    void theWokenShardIsReadFencedWithTheWakeUpAndTheQuietOneIsNot() {
        ShardId a = new ShardId("orders", 0);
        ShardId b = new ShardId("orders", 1);
        OwnedShard sa = owned(a, 1);
        OwnedShard sb = owned(b, 1);
        Landings landings = new Landings(sa, sb);
        Context context = vertx.getOrCreateContext();
        WakeUpLoop loop = new WakeUpLoop(redis, context, BLOCK_MS, woken -> { }, new ReadBehind(G, "A", 10, landings));

        await(on(context, () -> {
            loop.add(a, "0-0");
            loop.add(b, "0-0");
        }));
        waitUntil("the read blocks", 10_000, () -> blockedClients(redis) == 1);
        String id = add(redis, a, 1).get(0);
        waitUntil("the read behind landed", 10_000, () -> landings.outcomes.size() == 2);

        ReadBehind.Outcome read = landings.of(sa);
        assertThat(read.page().records()).extracting(StreamRecord::entryId).containsExactly(id);
        assertThat(landings.of(sb)).isEqualTo(ReadBehind.Outcome.NOTHING);
        assertThat(await(redis.send(Request.cmd(Command.XPENDING).arg(a.key()).arg(G))).get(0).toLong())
                .as("delivered to the member's pending list").isEqualTo(1);
        await(on(context, () -> { }).compose(v -> loop.close()));
    }

    @Test
    void aShardWhoseOwnerChangedIsRefusedAndNothingIsRead() {
        ShardId a = new ShardId("orders", 0);
        OwnedShard sa = owned(a, 1);
        assertThat(await(commands.setOwner(a, G, "B", 2))).isTrue();
        Landings landings = new Landings(sa);
        Context context = vertx.getOrCreateContext();
        WakeUpLoop loop = new WakeUpLoop(redis, context, BLOCK_MS, woken -> { }, new ReadBehind(G, "A", 10, landings));

        await(on(context, () -> loop.add(a, "0-0")));
        waitUntil("the read blocks", 10_000, () -> blockedClients(redis) == 1);
        add(redis, a, 1);
        waitUntil("the read behind landed", 10_000, () -> landings.outcomes.size() == 1);

        assertThat(landings.of(sa).error()).startsWith("FENCED {orders:0} owner=B epoch=2");
        assertThat(await(redis.send(Request.cmd(Command.XPENDING).arg(a.key()).arg(G))).get(0).toLong())
                .as("nothing delivered").isZero();
        await(on(context, () -> { }).compose(v -> loop.close()));
    }

    /** A shard of group {@link #G} owned by member A under {@code epoch}, as the member's machine holds it. */
    private OwnedShard owned(ShardId shard, long epoch) {
        await(commands.ensureGroup(shard, G, "0"));
        await(commands.setOwner(shard, G, "A", epoch));
        OwnedShard s = new OwnedShard(new Fence(shard, G, "A", epoch),
                new MemberContext("l", "A", G, new ConfigDef().parse(Map.of()), HandlerMetrics.noop()));
        s.transition(ShardPhase.TAKING_OVER, ShardActivity.PARKED, "test");
        s.transition(ShardPhase.REPLAYING, ShardActivity.PARKED, "test");
        s.transition(ShardPhase.READING, ShardActivity.PARKED, "test");
        s.transition(ShardPhase.READING, ShardActivity.IDLE, "test");
        return s;
    }

    /** Claims the given shards (each once) and records what landed. */
    private static final class Landings implements ReadBehind.Port {
        private final List<OwnedShard> shards;
        final List<Map.Entry<OwnedShard, ReadBehind.Outcome>> outcomes = new CopyOnWriteArrayList<>();

        Landings(OwnedShard... shards) {
            this.shards = List.of(shards);
        }

        @Override
        public OwnedShard claim(ShardId shard) {
            return outcomes.isEmpty() ? shards.stream().filter(s -> s.shard().equals(shard)).findFirst().orElse(null) : null;
        }

        @Override
        public void landed(OwnedShard shard, ReadBehind.Outcome outcome) {
            outcomes.add(Map.entry(shard, outcome));
        }

        ReadBehind.Outcome of(OwnedShard s) {
            return outcomes.stream().filter(e -> e.getKey() == s).findFirst().orElseThrow().getValue();
        }
    }
}
