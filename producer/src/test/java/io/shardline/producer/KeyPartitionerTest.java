package io.shardline.producer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/** Differential test against Kafka's own murmur2 and default partitioner formula. */
class KeyPartitionerTest {

    @Test
    void matchesKafkaOnRandomKeysOfEveryLength() {
        long seed = System.nanoTime();
        System.out.println("KeyPartitionerTest seed = " + seed);
        Random random = new Random(seed);
        for (int i = 0; i < 20_000; i++) {
            byte[] key = new byte[random.nextInt(40)];
            random.nextBytes(key);
            int shards = 1 + random.nextInt(512);
            assertThat(KeyPartitioner.murmur2(key)).as("seed %d, key #%d", seed, i).isEqualTo(Utils.murmur2(key));
            assertThat(KeyPartitioner.shardFor(key, shards)).as("seed %d", seed)
                    .isEqualTo(Utils.toPositive(Utils.murmur2(key)) % shards);
        }
    }

    @Test
    void stringKeysUseUtf8LikeKafkasStringSerializer() {
        for (String key : new String[] {"", "a", "customer-42", "ключ", "🔑 key", "x".repeat(1000)}) {
            byte[] bytes = new org.apache.kafka.common.serialization.StringSerializer().serialize("t", key);
            assertThat(bytes).isEqualTo(key.getBytes(StandardCharsets.UTF_8));
            assertThat(KeyPartitioner.shardFor(key, 16)).isEqualTo(Utils.toPositive(Utils.murmur2(bytes)) % 16);
        }
        assertThat(KeyPartitioner.toPositive(Integer.MIN_VALUE)).isZero();
    }
}
