package io.shardline.runtime.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.reshard.GroupShardSets.Paused;
import io.shardline.runtime.rest.entity.TargetState;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What is paused of the groups on one stream, from the target states and the listeners' definitions: a paused
 * listener by its group (its {@code group}, else its name), its paused shards of that stream only; listeners of
 * other streams and malformed definitions left out.
 */
class PausedGroupsTest {

    @Test
    void pausedListenersAndShardsOfTheStreamByGroup() {
        Map<String, Map<String, String>> definitions = Map.of(
                "x", Map.of("group", "g", "streams", "orders:4"),
                "y", Map.of("group", "g", "streams", "other:4"),
                "z", Map.of("streams", "orders:4, other:2"),
                "w", Map.of("group", "g", "streams", "orders:4"),
                "bad", Map.of("streams", "orders"));
        TargetStates states = new TargetStates(7, Map.of("x", TargetState.PAUSED, "y", TargetState.PAUSED,
                "w", TargetState.STOPPED, "bad", TargetState.PAUSED),
                Map.of("z", Set.of(new ShardId("orders", 2), new ShardId("other", 1))));

        assertThat(PausedGroups.on("orders", states, definitions)).isEqualTo(Map.of(
                "g", List.of(new Paused("x", Paused.WHOLE_LISTENER)),
                "z", List.of(new Paused("z", 2))));
    }
}
