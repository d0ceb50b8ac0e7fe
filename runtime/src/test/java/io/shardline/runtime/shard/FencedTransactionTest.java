package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.ShardTesting.add;
import static io.shardline.runtime.shard.ShardTesting.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The transactional hot path against a real redis-server, including an owner change between check and EXEC. */
@RedisTest
class FencedTransactionTest {

    private static final String G = "g";
    private static final ShardId S = new ShardId("orders", 5);

    private Vertx vertx;
    private VertxShardRedis redis;
    private ShardCommands commands;
    private final FencedTransaction tx = new FencedTransaction(10_000);

    @BeforeEach
    void setUp(RedisServer server) {
        vertx = Vertx.vertx();
        redis = VertxShardRedis.create(vertx, server.uri(), 4, 10_000);
        commands = new ShardCommands(redis, HotPath.SCRIPT);
        await(redis.send(Request.cmd(Command.FLUSHALL)));
        await(commands.loadLibrary());
        await(commands.ensureGroup(S, G, "0"));
        await(commands.setOwner(S, G, "A", 1));
    }

    @AfterEach
    void tearDown() {
        redis.close();
        await(vertx.close());
    }

    @Test
    void acksTheBatchReadsTheNextAndReportsTheTopIdWhenCaughtUp() {
        List<String> ids = add(redis, S, 5);
        RedisConnection c = await(redis.connectDedicated());
        List<StreamRecord> first = await(tx.ackAndRead(c, S, G, "A", 1, "KEEP", List.of(), 3)).records();
        assertThat(first).extracting(StreamRecord::entryId).containsExactlyElementsOf(ids.subList(0, 3));
        assertThat(first.get(0).deliveryCount()).isEqualTo(1);
        ShardCommands.ReadResult next = await(tx.ackAndRead(c, S, G, "A", 1, "DEL", ids.subList(0, 3), 3));
        assertThat(next.records()).extracting(StreamRecord::entryId).containsExactlyElementsOf(ids.subList(3, 5));
        assertThat(next.cursor()).isEqualTo(ids.get(4));
        assertThat(await(redis.send(Request.cmd(Command.XLEN).arg(S.key()))).toLong()).as("ack-delete").isEqualTo(2);
        ShardCommands.ReadResult empty = await(tx.ackAndRead(c, S, G, "A", 1, "KEEP", ids.subList(3, 5), 3));
        assertThat(empty.records()).isEmpty();
        assertThat(empty.cursor()).as("the wake-up position").isEqualTo(ids.get(4));
        assertThat(pending()).isZero();
        c.close();
    }

    @Test
    void aStaleOwnerNeitherAcksNorReads() {
        List<String> ids = add(redis, S, 3);
        RedisConnection c = await(redis.connectDedicated());
        List<StreamRecord> got = await(tx.ackAndRead(c, S, G, "A", 1, "KEEP", List.of(), 1)).records();
        await(commands.setOwner(S, G, "B", 2));
        assertThatThrownBy(() -> await(tx.ackAndRead(c, S, G, "A", 1, "KEEP", List.of(got.get(0).entryId()), 10)))
                .hasMessageContaining("FENCED {orders:5} owner=B epoch=2");
        assertThat(pending()).as("not acknowledged").isEqualTo(1);
        assertThat(lastDelivered()).as("nothing more read").isEqualTo(ids.get(0));
        c.close();
    }

    @Test
    void anOwnerChangeBetweenTheCheckAndExecAbortsTheTransaction() {
        List<String> ids = add(redis, S, 3);
        RedisConnection plain = await(redis.connectDedicated());
        List<StreamRecord> got = await(tx.ackAndRead(plain, S, G, "A", 1, "KEEP", List.of(), 1)).records();
        // The coordinator's hand-over lands after the WATCH and the owner check, just before MULTI.
        RedisConnection c = new HandOverBeforeMulti(plain, S.ownerKey(G));
        assertThatThrownBy(() -> await(tx.ackAndRead(c, S, G, "A", 1, "KEEP", List.of(got.get(0).entryId()), 10)))
                .hasMessageContaining("FENCED {orders:5} owner=B epoch=2");
        assertThat(pending()).as("not acknowledged").isEqualTo(1);
        assertThat(lastDelivered()).as("nothing more read").isEqualTo(ids.get(0));
        plain.close();
    }

    private long pending() {
        return await(redis.send(Request.cmd(Command.XPENDING).arg(S.key()).arg(G))).get(0).toLong();
    }

    private String lastDelivered() {
        Response groups = await(redis.send(Request.cmd(Command.XINFO).arg("GROUPS").arg(S.key())));
        Response g = groups.get(0);
        for (int i = 0; i + 1 < g.size(); i += 2) {
            if (g.get(i).toString().equals("last-delivered-id")) {
                return g.get(i + 1).toString();
            }
        }
        throw new AssertionError("no last-delivered-id in " + g);
    }

    /** Sends {@code HSET <owner key> owner B epoch 2} right before the first MULTI batch (same connection, in order). */
    private static final class HandOverBeforeMulti extends ForwardingConnection {
        private final String ownerKey;
        private boolean done;

        HandOverBeforeMulti(RedisConnection delegate, String ownerKey) {
            super(delegate);
            this.ownerKey = ownerKey;
        }

        @Override
        public Future<List<Response>> batch(List<Request> requests) {
            if (!done && requests.get(0).command() == Command.MULTI) {
                done = true;
                delegate.send(Request.cmd(Command.HSET).arg(ownerKey).arg("owner").arg("B").arg("epoch").arg(2));
            }
            return delegate.batch(requests);
        }
    }
}
