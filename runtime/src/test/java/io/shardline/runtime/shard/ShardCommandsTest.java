package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.ShardTesting.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RedisTest
class ShardCommandsTest {

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
    void fencedReadAndAckAreRefusedAfterTheOwnerChanges() {
        ShardId s = new ShardId("orders", 3);
        await(commands.ensureGroup(s, G, "0"));
        ShardTesting.add(redis, s, 4);
        assertThat(await(commands.setOwner(s, G, "A", 1))).isTrue();
        assertThat(await(commands.setOwner(s, G, "A", 1))).isFalse();

        ShardCommands.ReadResult page = await(commands.read(s, G, "A", 1, 10, ">"));
        assertThat(page.records()).extracting(StreamRecord::entryId).hasSize(4);
        assertThat(page.cursor()).isEqualTo(page.records().get(3).entryId());
        assertThat(await(commands.ack(s, G, "A", 1, AckMode.ACK, List.of(page.records().get(0).entryId())))).isEqualTo(1);

        assertThat(await(commands.setOwner(s, G, "B", 2))).isTrue();
        assertThatThrownBy(() -> await(commands.ack(s, G, "A", 1, AckMode.ACK, List.of(page.records().get(1).entryId()))))
                .hasMessageContaining("FENCED {orders:3} owner=B epoch=2");
        assertThatThrownBy(() -> await(commands.read(s, G, "A", 1, 10, ">"))).hasMessageContaining("FENCED");
        assertThatThrownBy(() -> await(commands.setOwner(s, G, "A", 1))).hasMessageContaining("STALE_EPOCH");

        // B sweeps A's three unacknowledged entries, replays them in order with their delivery count, then reads new ones.
        ShardCommands.TakeoverPage sweep = await(commands.takeover(s, G, "B", 2, "0-0", 100));
        assertThat(sweep.done()).isTrue();
        assertThat(sweep.claimed()).isEqualTo(3);
        ShardCommands.ReadResult replay = await(commands.read(s, G, "B", 2, 10, "0"));
        assertThat(replay.records()).extracting(StreamRecord::entryId)
                .containsExactly(page.records().get(1).entryId(), page.records().get(2).entryId(), page.records().get(3).entryId());
        assertThat(replay.records()).extracting(StreamRecord::deliveryCount).containsOnly(2);
        assertThat(await(commands.read(s, G, "B", 2, 10, replay.cursor())).cursor()).isEmpty();
        ShardCommands.ReadResult none = await(commands.read(s, G, "B", 2, 10, ">"));
        assertThat(none.records()).isEmpty();
        assertThat(none.cursor()).isEqualTo(page.records().get(3).entryId()); // the wake-up position: the top id
    }

    @Test
    void twoGroupsOnTheSameStreamOwnAndAckShardZeroWithTheirOwnEpochsWithoutFencingEachOther() {
        ShardId s = new ShardId("orders", 0);
        String billing = "billing";
        String audit = "audit";
        await(commands.ensureGroup(s, billing, "0"));
        await(commands.ensureGroup(s, audit, "0"));
        List<String> ids = ShardTesting.add(redis, s, 3);
        assertThat(s.ownerKey(billing)).isEqualTo("{orders:0}:owner:billing");

        // Each group's coordinator grants shard 0 with its own owner epochs: billing is at 5, audit starts at 1.
        assertThat(await(commands.setOwner(s, billing, "w1-billing-m0", 5))).isTrue();
        assertThat(await(commands.setOwner(s, audit, "w2-audit-m0", 1))).isTrue(); // lower epoch, other group: no STALE_EPOCH
        assertThat(await(redis.send(Request.cmd(Command.HGET).arg(s.ownerKey(billing)).arg("epoch"))).toLong()).isEqualTo(5);
        assertThat(await(redis.send(Request.cmd(Command.HGET).arg(s.ownerKey(audit)).arg("epoch"))).toLong()).isEqualTo(1);

        List<StreamRecord> b = await(commands.read(s, billing, "w1-billing-m0", 5, 10, ">")).records();
        List<StreamRecord> a = await(commands.read(s, audit, "w2-audit-m0", 1, 10, ">")).records();
        assertThat(b).extracting(StreamRecord::entryId).containsExactlyElementsOf(ids);
        assertThat(a).extracting(StreamRecord::entryId).containsExactlyElementsOf(ids);
        assertThat(await(commands.ack(s, billing, "w1-billing-m0", 5, AckMode.ACK, List.of(ids.get(0))))).isEqualTo(1);
        assertThat(await(commands.ack(s, audit, "w2-audit-m0", 1, AckMode.ACK, List.of(ids.get(0), ids.get(1))))).isEqualTo(2);

        // A re-grant in one group fences only that group's previous owner.
        assertThat(await(commands.setOwner(s, audit, "w3-audit-m0", 2))).isTrue();
        assertThatThrownBy(() -> await(commands.ack(s, audit, "w2-audit-m0", 1, AckMode.ACK, List.of(ids.get(2)))))
                .hasMessageContaining("FENCED {orders:0} owner=w3-audit-m0 epoch=2");
        assertThat(await(commands.ack(s, billing, "w1-billing-m0", 5, AckMode.ACK, List.of(ids.get(1), ids.get(2))))).isEqualTo(2);
        assertThat(await(redis.send(Request.cmd(Command.XPENDING).arg(s.key()).arg(billing))).get(0).toLong()).isZero();
        assertThat(await(redis.send(Request.cmd(Command.XPENDING).arg(s.key()).arg(audit))).get(0).toLong()).isEqualTo(1);
        assertThatThrownBy(() -> await(commands.setOwner(s, audit, "w2-audit-m0", 1))).hasMessageContaining("STALE_EPOCH");
    }

    @Test
    void ackDeleteRemovesEntriesAndDeletedPendingEntriesAreSkippedOnReplay() {
        ShardId s = new ShardId("o", 0);
        await(commands.ensureGroup(s, G, "0"));
        await(commands.ensureGroup(s, G, "0")); // BUSYGROUP is fine
        ShardTesting.add(redis, s, 3);
        await(commands.setOwner(s, G, "A", 7));
        List<StreamRecord> got = await(commands.read(s, G, "A", 7, 10, ">")).records();
        assertThat(await(commands.ack(s, G, "A", 7, AckMode.ACK_DELETE, List.of(got.get(0).entryId())))).isEqualTo(1);
        assertThat(await(redis.send(Request.cmd(Command.XLEN).arg(s.key()))).toLong()).isEqualTo(2);
        await(redis.send(Request.cmd(Command.XDEL).arg(s.key()).arg(got.get(1).entryId())));

        ShardCommands.ReadResult replay = await(commands.read(s, G, "A", 7, 10, "0"));
        assertThat(replay.records()).extracting(StreamRecord::entryId).containsExactly(got.get(2).entryId());
        assertThat(await(redis.send(Request.cmd(Command.XPENDING).arg(s.key()).arg(G))).get(0).toLong()).isEqualTo(1);
    }

    @Test
    void ackAndReadAcknowledgesThenReadsTheNextPageInOneCall() {
        ShardId s = new ShardId("o", 2);
        await(commands.ensureGroup(s, G, "0"));
        List<String> ids = ShardTesting.add(redis, s, 5);
        await(commands.setOwner(s, G, "A", 1));
        List<StreamRecord> first = await(commands.read(s, G, "A", 1, 3, ">")).records();
        ShardCommands.ReadResult next = await(commands.ackAndRead(s, G, "A", 1, AckMode.ACK,
                first.stream().map(StreamRecord::entryId).toList(), 3));
        assertThat(next.records()).extracting(StreamRecord::entryId).containsExactly(ids.get(3), ids.get(4));
        assertThat(await(redis.send(Request.cmd(Command.XPENDING).arg(s.key()).arg(G))).get(0).toLong()).isEqualTo(2);
        ShardCommands.ReadResult empty = await(commands.ackAndRead(s, G, "A", 1, AckMode.ACK_DELETE, List.of(ids.get(3), ids.get(4)), 3));
        assertThat(empty.records()).isEmpty();
        assertThat(empty.cursor()).isEqualTo(ids.get(2)); // top id after ids 3 and 4 were deleted
        await(commands.setOwner(s, G, "B", 2));
        assertThatThrownBy(() -> await(commands.ackAndRead(s, G, "A", 1, AckMode.ACK, List.of(), 3))).hasMessageContaining("FENCED");
    }

    @Test
    void missingOwnerIsNotFencingAndTheLibraryReloadsItself() {
        ShardId s = new ShardId("o", 1);
        await(commands.ensureGroup(s, G, "0"));
        assertThatThrownBy(() -> await(commands.read(s, G, "A", 1, 10, ">"))).hasMessageContaining("NOOWNER {o:1}");
        await(redis.send(Request.cmd(Command.FUNCTION).arg("FLUSH")));
        assertThat(await(commands.setOwner(s, G, "A", 1))).isTrue();
        assertThat(await(commands.read(s, G, "A", 1, 10, ">")).cursor()).isEqualTo("0-0");
        assertThat(await(commands.append("dlq", Map.of("a", "b")))).contains("-");
    }
}
