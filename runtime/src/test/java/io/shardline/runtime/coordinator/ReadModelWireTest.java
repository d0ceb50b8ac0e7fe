package io.shardline.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.assignor.Assignor;
import io.shardline.api.assignor.GroupAssignment;
import io.shardline.api.assignor.GroupSpec;
import io.shardline.api.assignor.ShardDescriber;
import io.shardline.coordinator.CoordinatorMetrics;
import io.shardline.coordinator.GroupCoordinator;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.protocol.HeartbeatRequest;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.runtime.rest.entity.GroupView;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
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
    void aFailedAssignorIsShownOnTheGroupAndReachesTheRestEntity() {
        Assignor broken = new Assignor() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public GroupAssignment assign(GroupSpec group, ShardDescriber shards) {
                throw new IllegalStateException("no luck");
            }
        };
        GroupCoordinator c = new GroupCoordinator(name -> broken, CoordinatorMetrics.NOOP);
        c.configureGroup(0, GroupConfig.of("g", Map.of("orders", 2), "broken", 3000, 500), ChangeReason.CONFIG_CHANGED);
        c.heartbeat(1, new HeartbeatRequest("g", "w1-l-m0", 0, Optional.empty(), Optional.of("az1"),
                new TreeSet<>(List.of("orders")), new TreeSet<>(), List.of(), 0, 2));
        JsonObject json = ReadModelWire.toJson(c.describe("g").orElseThrow(), id -> "w1");
        assertThat(json.getJsonObject("assignor_error").getString("message")).contains("'broken'", "no luck");
        GroupView entity = json.mapTo(GroupView.class);
        assertThat(entity.assignorError().message()).contains("no luck");
        assertThat(entity.members().get(0).zone()).isEqualTo("az1");
        assertThat(entity.members().get(0).weight()).isEqualTo(2);
    }
}
