package io.shardline.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.producer.routing.ShardRouting;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.shardline.testkit.redis.RespProbe;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The chaos producer writes under the stream's topology and re-routes a write a shard refuses (real Redis). */
@RedisTest
class ChaosProducerTest {

    @Test
    void writesUnderTheTopologyAndReroutesAfterAFlip(RedisServer redis) throws Exception {
        try (RespProbe probe = redis.probe()) {
            probe.call("FLUSHALL");
            ChaosProducer producer = new ChaosProducer(redis.host(), redis.port(), "chaos", 4, 0, () -> 0L);
            for (int i = 0; i < 8; i++) {
                producer.tick();
            }
            assertThat(probe.call("HGET", "{chaos:topology}", "shards")).as("created with its count").isEqualTo("4");

            // A change to 8 shards as the leader starts it: the record, then shard 1's flip.
            probe.call("HSET", "{chaos:topology}", "shards", "8", "routing_epoch", "2", "state", "RESHARDING");
            probe.call("FCALL", "routing_flip", "2", ShardRouting.routingKey("chaos", 1), ShardRouting.shardKey("chaos", 1), "2");
            for (int i = 0; i < 8; i++) {
                producer.tick();
            }
            producer.close();

            List<Produced> produced = producer.produced();
            assertThat(produced).hasSize(16);
            assertThat(produced.subList(0, 8)).allMatch(p -> p.shard() == p.seq() % 4);
            assertThat(produced.subList(8, 16)).as("refused at shard 1, then routed over 8 shards")
                    .allMatch(p -> p.shard() == p.seq() % 8);
            assertThat(probe.call("HGET", ShardRouting.routingKey("chaos", 5), "epoch"))
                    .as("its first write of epoch 2 flipped shard 5").isEqualTo("2");
            assertThat(producer.indeterminate()).isEmpty();
        }
    }
}
