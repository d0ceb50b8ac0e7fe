package io.shardline.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.AuditEvent;
import io.shardline.coordinator.AuditType;
import io.shardline.runtime.rest.entity.AuditEntry;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReadModelWireTest {

    @Test
    void workerOfPicksTheLongestLiveWorkerPrefix() {
        List<String> workers = List.of("w1", "w1-east", "w2");
        assertThat(ReadModelWire.workerOf("w1-orders-m0", workers)).isEqualTo("w1");
        assertThat(ReadModelWire.workerOf("w1-east-orders-m0", workers)).isEqualTo("w1-east");
        assertThat(ReadModelWire.workerOf("w3-orders-m0", workers)).isEqualTo("unknown");
        assertThat(ReadModelWire.workerOf("w2", workers)).isEqualTo("unknown");
    }

    @Test
    void auditEventsMapOntoTheRestEntity() {
        AuditEvent withShard = new AuditEvent(10, "g", AuditType.MEMBER_LEFT, "w1-l-m0", Optional.of(new ShardId("s", 3)),
                4, 5, 6, "left");
        AuditEvent bare = new AuditEvent(11, "g", AuditType.MEMBER_JOINED, "", Optional.empty(), 4, 5, -1, "joined");
        List<AuditEntry> entries = ReadModelWire.toJson(List.of(withShard, bare)).stream()
                .map(o -> ((JsonObject) o).mapTo(AuditEntry.class)).toList();
        assertThat(entries).containsExactly(
                new AuditEntry(10, "MEMBER_LEFT", "w1-l-m0", "s:3", 4, 5, 6, "left"),
                new AuditEntry(11, "MEMBER_JOINED", null, null, 4, 5, -1, "joined"));
    }
}
