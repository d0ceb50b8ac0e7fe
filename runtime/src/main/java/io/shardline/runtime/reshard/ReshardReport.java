package io.shardline.runtime.reshard;

import io.shardline.runtime.metrics.ReshardMetrics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a running change waits for, as {@link ReshardTask} writes it into the topology record's {@code progress} and
 * {@code cutover} fields (docs/operations.md, "Changing the shard count": {@code bin/shardline streams describe}):
 * per group how many shards passed the last barrier, up to {@value #WAITS_SHOWN} waiting shards and their parents,
 * the left-out shards not drained, and why the change cannot progress (a group with no live member, warned once per
 * reason); the waiting gauge of {@link ReshardMetrics}. Used by one tick at a time.
 */
final class ReshardReport {

    private static final Logger LOG = LoggerFactory.getLogger(ReshardTask.class);
    private static final int WAITS_SHOWN = 8;

    private final ReshardMetrics metrics;
    private final Map<String, String> reported = new HashMap<>();

    ReshardReport(ReshardMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /** The change of {@code stream} completed under {@code epoch}: stable in the metrics, its warnings forgotten. */
    void completed(String stream, long epoch) {
        metrics.stream(stream, ReshardState.STABLE.ordinal(), epoch);
        reported.remove(stream);
    }

    /** Per group: how many shards passed the last barrier, what the others wait for, which left-out shards hold. */
    Map<String, Object> report(Reshard machine, List<GroupShardSets.OnStream> on, Progress progress) {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> perGroup = new TreeMap<>();
        List<String> blocked = new ArrayList<>();
        int waitingShards = 0;
        for (GroupShardSets.OnStream g : on) {
            int passed = 0;
            List<Map<String, Object>> waits = new ArrayList<>();
            for (int j = 0; j < machine.maxShards(); j++) {
                var wait = machine.waits(progress, g.group(), j);
                if (wait.isEmpty()) {
                    passed += j < machine.shards() ? 1 : 0;
                } else if (!wait.get().getValue().isEmpty() || progress.routing(j).epoch() < wait.get().getKey()) {
                    waitingShards++;
                    if (waits.size() < WAITS_SHOWN) {
                        waits.add(Map.of("shard", j, "epoch", wait.get().getKey(), "parents", wait.get().getValue()));
                    }
                }
            }
            List<Integer> leftOut = machine.undrained(progress, g.group());
            perGroup.put(g.group(), Map.of("passed", passed, "of", machine.shards(), "members", g.members(),
                    "waiting", waits, "retiring_not_drained", leftOut));
            if (g.members() == 0 && (passed < machine.shards() || !leftOut.isEmpty())) {
                blocked.add("group '" + g.group() + "' has no live member: nobody reads its shards, so the change "
                        + "cannot pass its barriers; start its listener, or roll the change back");
            }
        }
        out.put("groups", perGroup);
        out.put("blocked", blocked);
        metrics.waiting(machine.stream(), waitingShards);
        String summary = String.join("; ", blocked);
        if (!summary.isEmpty() && !summary.equals(reported.put(machine.stream(), summary))) {
            LOG.warn("Resharding of stream '{}' cannot progress: {}", machine.stream(), summary);
        }
        return out;
    }

    static Map<String, String> cutovers(Progress progress, long epoch) {
        Map<String, String> out = new TreeMap<>();
        progress.routing().forEach((i, r) -> {
            String cut = r.cutovers().get(epoch);
            if (cut != null) {
                out.put(Integer.toString(i), cut);
            }
        });
        return out;
    }
}
