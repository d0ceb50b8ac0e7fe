package io.shardline.runtime.control;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.reshard.GroupShardSets;
import io.shardline.runtime.rest.entity.TargetState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What operators paused of the groups on one stream, for the leader's resharding report (docs/operations.md,
 * "Changing the shard count": {@code progress.blocked}): per group, its listeners whose target state is
 * {@link TargetState#PAUSED} and the listeners' paused shards of the stream, from the persisted target states and the
 * listener definitions (a listener's group and streams). Stateless.
 */
public final class PausedGroups {

    private PausedGroups() {
    }

    /**
     * Group to what is paused of it on {@code stream}, sorted; a group with nothing paused is absent.
     *
     * @param states the persisted target states
     * @param definitions listener name to its raw definition (a malformed {@code streams} is skipped: the listener
     *     does not run)
     */
    public static Map<String, List<GroupShardSets.Paused>> on(String stream, TargetStates states,
                                                               Map<String, Map<String, String>> definitions) {
        Map<String, List<GroupShardSets.Paused>> out = new TreeMap<>();
        definitions.forEach((name, config) -> {
            ListenerShape shape;
            try {
                shape = ListenerShape.of(name, config);
            } catch (ControlPlaneException e) {
                return;
            }
            if (shape.shardCount(stream) == 0) {
                return;
            }
            List<GroupShardSets.Paused> paused = new ArrayList<>();
            if (states.targetState(name) == TargetState.PAUSED) {
                paused.add(new GroupShardSets.Paused(name, GroupShardSets.Paused.WHOLE_LISTENER));
            }
            for (ShardId shard : states.pausedShards(name)) {
                if (shard.stream().equals(stream)) {
                    paused.add(new GroupShardSets.Paused(name, shard.index()));
                }
            }
            if (!paused.isEmpty()) {
                out.computeIfAbsent(shape.group(), g -> new ArrayList<>()).addAll(paused);
            }
        });
        out.values().forEach(list -> list.sort(null));
        return out;
    }
}
