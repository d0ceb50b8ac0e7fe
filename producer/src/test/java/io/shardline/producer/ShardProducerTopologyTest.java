package io.shardline.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.producer.routing.NoTopologyException;
import io.shardline.producer.routing.RoutingRedis;
import io.shardline.producer.routing.ShardRouting;
import io.shardline.producer.routing.Topologies;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A producer follows the stream's topology and its routing epoch (docs/protocol.md, section 8b), on a real Redis. */
@RedisTest
class ShardProducerTopologyTest {

    private Vertx vertx;
    private Redis redis;
    private Topologies topologies;
    private ShardRouting routing;

    @BeforeEach
    void connect(RedisServer server) throws Exception {
        vertx = Vertx.vertx();
        redis = Redis.createClient(vertx, server.uri());
        await(redis.send(Request.cmd(Command.FLUSHALL)));
        topologies = new Topologies(RoutingRedis.of(redis));
        routing = new ShardRouting(RoutingRedis.of(redis));
    }

    @AfterEach
    void close() throws Exception {
        redis.close();
        await(vertx.close());
    }

    static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
    }

    static Throwable failure(Future<?> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().handle((r, e) -> e).get(15, TimeUnit.SECONDS);
    }

    /** What the leader does when a change starts: the record first (routing_epoch, shards), then the flips. */
    private void reshard(String stream, int shards, long epoch) throws Exception {
        await(redis.send(Request.cmd(Command.HSET).arg("{" + stream + ":topology}").arg("shards").arg(shards)
                .arg("routing_epoch").arg(epoch).arg("state").arg("RESHARDING")));
    }

    private List<Response> entries(String shardKey) throws Exception {
        List<Response> out = new ArrayList<>();
        await(redis.send(Request.cmd(Command.XRANGE).arg(shardKey).arg("-").arg("+"))).forEach(out::add);
        return out;
    }

    @Test
    void aStreamWithoutTopologyIsRefusedNamingTheCommandThatCreatesIt() throws Exception {
        Throwable e = failure(new ShardProducer(redis, "nothing").send("k", Map.of("v", "1")));

        assertThat(e).isInstanceOf(NoTopologyException.class).hasMessageContaining("stream 'nothing' has no topology")
                .hasMessageContaining("bin/shardline streams create nothing --shards N");
        assertThat(await(redis.send(Request.cmd(Command.KEYS).arg("*"))).size()).as("nothing written").isZero();
    }

    @Test
    void aShardCountCreatesTheStreamAndOneThatDisagreesIsRefusedNamingBoth() throws Exception {
        await(new ShardProducer(RoutingRedis.of(redis), "made", new ShardProducer.Create(6, "c1", "test"), StreamCap.NONE)
                .send("k", Map.of("v", "1")));
        assertThat(await(topologies.read("made")).orElseThrow().shards()).isEqualTo(6);
        assertThat(await(redis.send(Request.cmd(Command.HGET).arg(Topologies.registryKey("c1")).arg("made"))).toString())
                .as("registered for GET /streams").isEqualTo("1");

        Throwable e = failure(new ShardProducer(redis, "made", 8).send("k", Map.of("v", "2")));

        assertThat(e).hasMessageContaining("has 6 shards in its topology").hasMessageContaining("was given 8");
        assertThat(await(new ShardProducer(redis, "made", 6).topology()).shards()).isEqualTo(6);
    }

    @Test
    void keysAreRoutedWithTheTopologysShardCount() throws Exception {
        await(topologies.create("t", 4, "test", null));
        ShardProducer producer = new ShardProducer(redis, "t");

        String id = await(producer.send("customer-42", Map.of("amount", "10")));

        List<Response> there = entries(producer.shardKey(KeyPartitioner.shardFor("customer-42", 4)));
        assertThat(there).hasSize(1);
        assertThat(there.get(0).get(0).toString()).isEqualTo(id);
    }

    /** A producer routing under epoch 1 while a shard is flipped to 2: refused once, reads again, lands in the new layout. */
    @Test
    void aStaleProducerIsRefusedOnceRereadsAndWritesInTheNewLayout() throws Exception {
        await(topologies.create("orders", 4, "test", null));
        ShardProducer producer = new ShardProducer(redis, "orders");
        await(producer.send("warm-up", Map.of("v", "0")));
        String key = firstKey(k -> KeyPartitioner.shardFor(k, 4) != KeyPartitioner.shardFor(k, 8));
        int oldShard = KeyPartitioner.shardFor(key, 4);
        reshard("orders", 8, 2);
        String cutover = await(routing.flip("orders", oldShard, 2));

        String id = await(producer.send(key, Map.of("v", "after")));

        assertThat(producer.refusals()).isEqualTo(1);
        assertThat(await(producer.topology()).routingEpoch()).isEqualTo(2);
        assertThat(entries(producer.shardKey(KeyPartitioner.shardFor(key, 8)))).extracting(e -> e.get(0).toString())
                .containsExactly(id);
        assertThat(entries(producer.shardKey(oldShard))).extracting(e -> e.get(0).toString())
                .as("nothing after the cutover in the old layout").allMatch(e -> e.compareTo(cutover) <= 0);
        await(producer.send(key, Map.of("v", "again")));
        assertThat(producer.refusals()).as("refused at most once per change").isEqualTo(1);
    }

    /** A pipelined batch partly refused: the refused records are written again in their order, each key's order kept. */
    @Test
    void aPartlyRefusedBatchRetriesTheRefusedInOrderAndKeepsEachKeysOrder() throws Exception {
        await(topologies.create("batch", 4, "test", null));
        ShardProducer producer = new ShardProducer(redis, "batch");
        await(producer.topology());
        reshard("batch", 8, 2);
        await(routing.flip("batch", 1, 2));
        List<ShardProducer.Record> records = new ArrayList<>();
        for (int seq = 0; seq < 200; seq++) {
            records.add(new ShardProducer.Record("key-" + (seq % 20), Map.of("seq", Integer.toString(seq))));
        }

        List<String> ids = await(producer.sendAll(records));

        assertThat(ids).hasSize(200).doesNotContainNull();
        assertThat(producer.refusals()).isEqualTo(1);
        Map<String, List<Integer>> seqsByKey = new HashMap<>();
        int total = 0;
        for (int shard = 0; shard < 8; shard++) {
            for (Response e : entries(producer.shardKey(shard))) {
                String key = e.get(1).get(1).toString();
                int oldShard = KeyPartitioner.shardFor(key, 4);
                int expected = oldShard == 1 ? KeyPartitioner.shardFor(key, 8) : oldShard;
                assertThat(shard).as("key %s: flipped shards take the new layout, others stay", key).isEqualTo(expected);
                seqsByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(Integer.parseInt(e.get(1).get(3).toString()));
                total++;
            }
        }
        assertThat(total).isEqualTo(200);
        seqsByKey.values().forEach(seqs -> assertThat(seqs).isSorted());
    }

    /** bin/produce pipelines up to 10,000 records per call (--batch): all on one connection, in order. */
    @Test
    void aLargeBatchIsWrittenInOrder() throws Exception {
        await(topologies.create("large", 1, "test", null));
        List<ShardProducer.Record> records = new ArrayList<>();
        for (int seq = 0; seq < 10_000; seq++) {
            records.add(new ShardProducer.Record(null, Map.of("seq", Integer.toString(seq))));
        }

        List<String> ids = await(new ShardProducer(redis, "large").sendAll(records));

        assertThat(ids).hasSize(10_000).isSortedAccordingTo(java.util.Comparator
                .comparingLong((String id) -> Long.parseLong(id.substring(0, id.indexOf('-'))))
                .thenComparingLong(id -> Long.parseLong(id.substring(id.indexOf('-') + 1))));
    }

    @Test
    void aTopologyThatNeverCatchesUpFailsAfterTheBoundedRetriesWithNothingWritten() throws Exception {
        await(topologies.create("stuck", 1, "test", null));
        await(routing.flip("stuck", 0, 3));
        ShardProducer producer = new ShardProducer(redis, "stuck");

        Throwable e = failure(producer.send("k", Map.of("v", "1")));

        assertThat(e).isInstanceOf(RoutingRetriesExhaustedException.class)
                .hasMessageContaining("refused in each of " + ShardProducer.MAX_ATTEMPTS + " attempts")
                .hasMessageContaining("STALE_ROUTING stuck shard=0 epoch=3")
                .hasMessageContaining("bin/shardline streams describe stuck");
        assertThat(producer.refusals()).isEqualTo(ShardProducer.MAX_ATTEMPTS);
        assertThat(entries(producer.shardKey(0))).isEmpty();
    }

    private static String firstKey(java.util.function.Predicate<String> test) {
        for (int i = 0; ; i++) {
            if (test.test("key-" + i)) {
                return "key-" + i;
            }
        }
    }
}
