package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.ShardTesting.add;
import static io.shardline.runtime.shard.ShardTesting.await;
import static io.shardline.runtime.shard.ShardTesting.blockedClients;
import static io.shardline.runtime.shard.ShardTesting.on;
import static io.shardline.runtime.shard.ShardTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The standalone wake-up loop: one blocking read over the idle shards, interrupted when a shard it misses goes idle. */
@RedisTest
class WakeUpLoopTest {

    private static final long BLOCK_MS = 60_000;
    private static final long UNBLOCK_DELAY_MS = 1_000;
    private static final long SLOW_UNBLOCK_DELAY_MS = 5_000;

    private Vertx vertx;
    private VertxShardRedis redis;

    @BeforeEach
    void setUp(RedisServer server) {
        vertx = Vertx.vertx();
        redis = VertxShardRedis.create(vertx, server.uri(), 4, 10_000);
        await(redis.send(Request.cmd(Command.FLUSHALL)));
    }

    @AfterEach
    void tearDown() {
        redis.close();
        await(vertx.close());
    }

    /**
     * A shard that goes idle while the interrupt timer of an earlier shard is pending, but after the read that timer
     * was meant for returned and was issued again without it, is watched once the timer fires (it was left unwatched
     * until the blocking read timed out).
     */
    @Test
    void aShardGoneIdleAfterTheReadWasIssuedAgainIsWatchedWhenThePendingTimerFires() {
        ShardId a = new ShardId("orders", 0);
        ShardId x = new ShardId("orders", 1);
        ShardId y = new ShardId("orders", 2);
        String topA = add(redis, a, 1).get(0);
        String topX = add(redis, x, 1).get(0);
        String topY = add(redis, y, 1).get(0);
        Context context = vertx.getOrCreateContext();
        List<ShardId> woken = new CopyOnWriteArrayList<>();
        // A slow interrupt timer: the steps below (a few Redis round trips) must all run before it fires, also on
        // a busy machine.
        WakeUpLoop loop = new WakeUpLoop(redis, context, BLOCK_MS, SLOW_UNBLOCK_DELAY_MS, woken::add);

        await(on(context, () -> loop.add(a, topA)));
        waitUntil("the read blocks on shard 0", 10_000, () -> blockedClients(redis) == 1);
        long start = System.nanoTime();
        await(on(context, () -> loop.add(x, topX))); // the interrupt timer starts, for the read in flight
        add(redis, a, 1); // the read returns by itself and is issued again, now with shard 1
        waitUntil("shard 0 woken", 10_000, () -> woken.contains(a));
        await(on(context, () -> loop.add(y, topY))); // while the timer is pending: not in the read in flight
        add(redis, y, 1);
        assertThat((System.nanoTime() - start) / 1_000_000).as("the steps ran before the timer fired (its delay %s ms)", SLOW_UNBLOCK_DELAY_MS)
                .isLessThan(SLOW_UNBLOCK_DELAY_MS);

        waitUntil("shard 2 woken", BLOCK_MS / 4, () -> woken.contains(y));
        assertThat(woken).containsExactly(a, y);
        await(on(context, () -> { }).compose(v -> loop.close()));
    }

    /**
     * A shard the loop woke is watched again by the very next read, from the entry that woke it: when it goes idle
     * again it is covered at once, with no interrupt (here the interrupt timer would take a minute), and an entry
     * added then wakes it.
     */
    @Test
    void aShardTheLoopWokeIsWatchedAgainAtOnceWhenItGoesIdle() {
        TwoIdleShards t = new TwoIdleShards(BLOCK_MS);
        ShardId a = t.a;
        Context context = t.context;
        WakeUpLoop loop = t.loop;
        List<ShardId> woken = t.woken;
        String next = add(redis, a, 1).get(0);
        waitUntil("shard 0 woken", 10_000, () -> woken.contains(a));
        waitUntil("the read blocks again", 10_000, () -> blockedClients(redis) == 1);
        await(on(context, () -> loop.add(a, next))); // shard 0 read its entry and is idle again
        add(redis, a, 1);
        waitUntil("shard 0 woken again, long before any interrupt", 10_000, () -> woken.size() == 2);
        assertThat(woken).containsExactly(a, a);
        await(on(context, () -> { }).compose(v -> loop.close()));
    }

    /**
     * A shard the loop woke that gets more entries while it reads is not woken again by them (it is reading), and the
     * read that saw them stops watching it: once idle, it is watched from where it got to, so an old entry does not
     * make the read return at once, over and over.
     */
    @Test
    void aWokenShardThatGetsMoreEntriesWhileReadingIsNotWokenAgainByThem() {
        TwoIdleShards t = new TwoIdleShards(50);
        ShardId a = t.a;
        ShardId b = t.b;
        Context context = t.context;
        WakeUpLoop loop = t.loop;
        List<ShardId> woken = t.woken;
        add(redis, a, 1);
        waitUntil("shard 0 woken", 10_000, () -> woken.contains(a));
        String last = add(redis, a, 3).get(2); // while shard 0 "reads": the read returns for it, which is not a wake-up
        waitUntil("the read blocks again", 10_000, () -> blockedClients(redis) == 1);
        assertThat(woken).containsExactly(a);
        long unblocksBefore = unblocks();
        await(on(context, () -> loop.add(a, last))); // idle after reading all four: not watched, so interrupted
        waitUntil("the read was interrupted and blocks on both again", 10_000,
                () -> unblocks() == unblocksBefore + 1 && blockedClients(redis) == 1);
        add(redis, b, 1);
        waitUntil("shard 1 woken", 10_000, () -> woken.contains(b));
        assertThat(woken).containsExactly(a, b);
        await(on(context, () -> { }).compose(v -> loop.close()));
    }

    /**
     * With the default delay ({@link WakeUpLoop#UNBLOCK_DELAY_MS} = 0) a shard that goes idle unwatched has the read in
     * flight interrupted at once, with no timer (here the read would block a minute): an entry added then wakes it.
     */
    @Test
    void aShardGoneIdleUnwatchedIsWatchedAtOnceByDefault() {
        TwoIdleShards t = new TwoIdleShards(WakeUpLoop.UNBLOCK_DELAY_MS);
        ShardId a = t.a;
        add(redis, a, 1);
        waitUntil("shard 0 woken", 10_000, () -> t.woken.contains(a));
        String last = add(redis, a, 3).get(2); // while shard 0 "reads": the read returns for it and stops watching it
        waitUntil("the read blocks again", 10_000, () -> blockedClients(redis) == 1);
        long unblocksBefore = unblocks();
        await(on(t.context, () -> t.loop.add(a, last)));
        waitUntil("the read was interrupted at once and blocks on both again", 10_000,
                () -> unblocks() == unblocksBefore + 1 && blockedClients(redis) == 1);
        add(redis, a, 1);
        waitUntil("shard 0 woken again", 10_000, () -> t.woken.size() == 2);
        assertThat(t.woken).containsExactly(a, a);
        await(on(t.context, () -> { }).compose(v -> t.loop.close()));
    }

    /** Two shards with one entry each, idle on a new loop whose blocking read is in flight. */
    private final class TwoIdleShards {
        final ShardId a = new ShardId("orders", 0);
        final ShardId b = new ShardId("orders", 1);
        final Context context = vertx.getOrCreateContext();
        final List<ShardId> woken = new CopyOnWriteArrayList<>();
        final WakeUpLoop loop;

        TwoIdleShards(long unblockDelayMs) {
            String topA = add(redis, a, 1).get(0);
            String topB = add(redis, b, 1).get(0);
            loop = new WakeUpLoop(redis, context, BLOCK_MS, unblockDelayMs, woken::add);
            await(on(context, () -> {
                loop.add(a, topA);
                loop.add(b, topB);
            }));
            waitUntil("the read blocks", 10_000, () -> blockedClients(redis) == 1);
        }
    }

    /** {@code CLIENT UNBLOCK} calls the server has seen since it started. */
    private long unblocks() {
        String stats = await(redis.send(Request.cmd(Command.INFO).arg("commandstats"))).toString();
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("cmdstat_client|unblock:calls=")) {
                return Long.parseLong(line.substring("cmdstat_client|unblock:calls=".length(), line.indexOf(',')));
            }
        }
        return 0;
    }
}
