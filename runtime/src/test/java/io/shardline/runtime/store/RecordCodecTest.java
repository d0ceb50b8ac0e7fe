package io.shardline.runtime.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.record.MemberMetadataRecord;
import io.shardline.coordinator.record.MemberStateRecord;
import io.shardline.coordinator.record.Records;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class RecordCodecTest {

    private static List<CoordinatorRecord> sample() {
        ShardId s0 = new ShardId("orders", 0);
        ShardId s1 = new ShardId("orders", 1);
        TreeMap<ShardId, Integer> assigned = new TreeMap<>(Map.of(s0, 3));
        return List.of(
                Records.newGroupConfigRecord(GroupConfig.of("g", Map.of("orders", 2), "range", 10_000, 1_000)),
                Records.newGroupEpochRecord("g", 1, ChangeReason.GROUP_CREATED),
                new MemberMetadataRecord("g", "w1-l-m0", Optional.of("i1"), Optional.empty(), new TreeSet<>(List.of("orders"))),
                new MemberStateRecord("g", "w1-l-m0", 2, 1, MemberState.STABLE, assigned, new TreeSet<>(List.of(s1))),
                Records.newShardOwnerRecord("g", s0, "w1-l-m0", 3),
                Records.newTargetAssignmentRecord("g", "w1-l-m0", new TreeSet<>(List.of(s0, s1))));
    }

    @Test
    void recordsRoundTripThroughJson() {
        RecordCodec codec = new RecordCodec();
        for (CoordinatorRecord record : sample()) {
            assertEquals(record, codec.decode(codec.encode(record)));
        }
        assertThat(codec.encode(sample().get(4))).contains("\"{orders:0}\"");
        assertThatThrownBy(() -> codec.decode("{\"type\":\"Nope\",\"record\":{}}")).hasMessageContaining("'Nope'");
    }
}
