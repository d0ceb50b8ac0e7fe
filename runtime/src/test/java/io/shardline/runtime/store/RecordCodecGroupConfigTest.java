package io.shardline.runtime.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.RebalanceProtocol;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.record.Records;
import io.shardline.runtime.coordinator.CoordinatorWire;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A group's protocol and shard zones survive the group log (a new leader replays them) and the configure message
 * (members send them); a configuration persisted before zones existed reads as one without zones.
 */
class RecordCodecGroupConfigTest {

    private static final GroupConfig CONFIG = GroupConfig.of("g", Map.of("orders", 2), "sticky", 10_000, 1_000)
            .withProtocol(RebalanceProtocol.EAGER)
            .withRacks(Map.of("orders", List.of(Set.of("az1"), Set.of("az2", "az3"))));

    @Test
    void zonesAndProtocolRoundTrip() {
        RecordCodec codec = new RecordCodec();
        CoordinatorRecord record = Records.newGroupConfigRecord(CONFIG);
        assertThat(codec.decode(codec.encode(record))).isEqualTo(record);
        assertThat(CoordinatorWire.groupConfig(CoordinatorWire.toJson(CONFIG))).isEqualTo(CONFIG);
        assertThat(CONFIG.racksOf("orders", 1)).containsExactly("az2", "az3");
    }

    @Test
    void aConfigWithoutZonesReadsAsNoZones() {
        RecordCodec codec = new RecordCodec();
        GroupConfig plain = GroupConfig.of("g", Map.of("orders", 2), "range", 10_000, 1_000);
        String json = codec.encode(Records.newGroupConfigRecord(plain)).replace(",\"racks\":{}", "");
        assertThat(json).doesNotContain("racks");
        assertThat(codec.decode(json)).isEqualTo(Records.newGroupConfigRecord(plain));
    }
}
