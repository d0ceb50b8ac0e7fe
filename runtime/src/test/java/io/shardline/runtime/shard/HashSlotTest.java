package io.shardline.runtime.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import org.junit.jupiter.api.Test;

class HashSlotTest {

    @Test
    void slotsMatchRedisClusterKeyslot() {
        // Values of CLUSTER KEYSLOT from the Redis documentation.
        assertThat(HashSlot.of("somekey")).isEqualTo(11058);
        assertThat(HashSlot.of("foo{hash_tag}")).isEqualTo(2515);
        assertThat(HashSlot.of("foo")).isEqualTo(12182);
        assertThat(HashSlot.of("{user1000}.following")).isEqualTo(HashSlot.of("{user1000}.followers"));
    }

    @Test
    void aShardAndItsOwnerKeysShareASlot() {
        ShardId s = new ShardId("orders", 3);
        assertThat(HashSlot.of(s.ownerKey("billing"))).isEqualTo(HashSlot.of(s.key()));
    }
}
