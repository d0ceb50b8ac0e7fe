package io.shardline.api.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StreamRecordTest {

    private static final ShardId ORDERS_3 = new ShardId("orders", 3);

    @Test
    void shardKeysCarryAHashTagAndParseBack() {
        assertThat(ORDERS_3.key()).isEqualTo("{orders:3}");
        assertThat(ORDERS_3.ownerKey("billing")).isEqualTo("{orders:3}:owner:billing");
        assertThat(ORDERS_3.ownerKey("audit")).isNotEqualTo(ORDERS_3.ownerKey("billing"));
        assertThat(ShardId.fromKey("{orders:3}")).isEqualTo(ORDERS_3);
        assertThat(ShardId.fromKey("{a:b:12}")).isEqualTo(new ShardId("a:b", 12));
    }

    @Test
    void badShardsAreRejectedWithTheValue() {
        assertThatThrownBy(() -> new ShardId("or{ders", 1)).hasMessageContaining("or{ders");
        assertThatThrownBy(() -> new ShardId("orders", -1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> ShardId.fromKey("orders:1")).hasMessageContaining("orders:1");
        assertThatThrownBy(() -> ShardId.fromKey("{orders:x}")).hasMessageContaining("{orders:x}");
        assertThatThrownBy(() -> ORDERS_3.ownerKey("")).hasMessageContaining("consumer group").hasMessageContaining("orders:3");
        assertThatThrownBy(() -> ORDERS_3.ownerKey(null)).hasMessageContaining("consumer group");
    }

    @Test
    void recordExposesKeyTimestampAndKeepsFieldOrder() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("z", "1");
        fields.put(StreamRecord.KEY_FIELD, "customer-7");
        fields.put("a", "2");
        StreamRecord r = new StreamRecord(ORDERS_3, "1700000000123-4", fields, 1);
        fields.put("late", "x");

        assertThat(r.key()).contains("customer-7");
        assertThat(r.timestampMs()).isEqualTo(1700000000123L);
        assertThat(r.fields().keySet()).containsExactly("z", StreamRecord.KEY_FIELD, "a");
        assertThat(new StreamRecord(ORDERS_3, "1-0", Map.of(), 1).key()).isEmpty();
        assertThatThrownBy(() -> new StreamRecord(ORDERS_3, "17", Map.of(), 1)).hasMessageContaining("'17'");
    }

    @Test
    void defaultBatchHandlesRecordsInOrderAndConfigConverts() throws Exception {
        List<String> seen = new java.util.ArrayList<>();
        SyncHandler h = (record, shard) -> seen.add(record.entryId());
        h.handleBatch(List.of(new StreamRecord(ORDERS_3, "1-0", Map.of(), 1),
                new StreamRecord(ORDERS_3, "2-0", Map.of(), 1)), null);
        assertThat(seen).containsExactly("1-0", "2-0");

    }
}
