package io.shardline.runtime.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The hash slot of a shard key, as Redis Cluster computes it (CLUSTER KEYSLOT). */
class ShardZonesTest {

    @Test
    void slotsAreThoseOfRedisClusterKeyslot() {
        // Values of CLUSTER KEYSLOT on Redis 7: the hash tag decides; "123456789" is CRC16's check value 0x31C3.
        assertThat(ShardZones.slot("123456789")).isEqualTo(0x31C3 % 16384);
        assertThat(ShardZones.slot("{user1000}.following")).isEqualTo(ShardZones.slot("user1000"));
        assertThat(ShardZones.slot("foo")).isEqualTo(12182);
        assertThat(ShardZones.slot("{orders:3}")).isEqualTo(ShardZones.slot("orders:3"));
        assertThat(ShardZones.slot("{}x")).isEqualTo(ShardZones.slot("{}x"));
    }
}
