package io.shardline.runtime.reshard;

import io.shardline.runtime.metrics.ReshardMetrics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a running change waits for, as {@link ReshardTask} writes it into the topology record's {@code progress} and
 * {@code cutover} fields (docs/operations.md, "Changing the shard count": {@code bin/shardline streams describe}):
 * per group how many shards passed the last barrier, up to {@value #WAITS_SHOWN} waiting shards and their parents,
 * the left-out shards not drained, and why the change cannot progress (a group with no live member, a paused listener
 * of a group that has not passed, a paused shard the change waits for: warned once per set of reasons); the waiting
 * gauge of {@link ReshardMetrics}; and what each group's members should watch ({@link #watches()}). Used by one tick at
 * a time.
 */
final class ReshardReport {

    private static final Logger LOG = LoggerFactory.getLogger(ReshardTask.class);
    private static final int WAITS_SHOWN = 8;

    private final ReshardMetrics metrics;
    private final Map<String, String> reported = new HashMap<>();
    /** The last report's watches: group to the shards its barriers wait for, with their cutovers. */
    private Map<String, Map<Integer, String>> watches = Map.of();

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
        Map<String, Map<Integer, String>> watching = new TreeMap<>();
        for (GroupShardSets.OnStream g : on) {
            int passed = 0;
            List<Map<String, Object>> waits = new ArrayList<>();
            SortedSet<Integer> held = new TreeSet<>();
            Map<Integer, String> watch = watching.computeIfAbsent(g.group(), k -> new TreeMap<>());
            for (int j = 0; j < machine.maxShards(); j++) {
                var wait = machine.waits(progress, g.group(), j);
                if (wait.isEmpty()) {
                    passed += j < machine.shards() ? 1 : 0;
                } else if (!wait.get().getValue().isEmpty() || progress.routing(j).epoch() < wait.get().getKey()) {
                    waitingShards++;
                    held.addAll(wait.get().getValue());
                    long e = wait.get().getKey();
                    wait.get().getValue().forEach(p -> progress.routing(p).cutoverFor(e)
                            .ifPresent(cut -> watch.put(p, cut)));
                    if (waits.size() < WAITS_SHOWN) {
                        waits.add(Map.of("shard", j, "epoch", wait.get().getKey(), "parents", wait.get().getValue()));
                    }
                }
            }
            List<Integer> leftOut = machine.undrained(progress, g.group());
            held.addAll(leftOut);
            leftOut.forEach(i -> progress.routing(i).cutoverFor(machine.epoch()).ifPresent(cut -> watch.put(i, cut)));
            perGroup.put(g.group(), Map.of("passed", passed, "of", machine.shards(), "members", g.members(),
                    "owned", g.owned(), "waiting", waits, "retiring_not_drained", leftOut));
            if (passed < machine.shards() || !leftOut.isEmpty()) {
                blocked.addAll(blocked(machine, g, held));
            }
        }
        watches = watching;
        out.put("groups", perGroup);
        out.put("blocked", blocked);
        metrics.waiting(machine.stream(), waitingShards);
        String summary = String.join("; ", blocked);
        if (!summary.isEmpty() && !summary.equals(reported.put(machine.stream(), summary))) {
            LOG.warn("Resharding of stream '{}' cannot progress: {}", machine.stream(), summary);
        }
        return out;
    }

    /**
     * The last report's watches (docs/protocol.md section 8b): per group, the shards its waiting shards' barriers and
     * the completion wait for, with the cutover each must be acknowledged to.
     */
    Map<String, Map<Integer, String>> watches() {
        return watches;
    }

    /**
     * Why group {@code g}, which has not passed, cannot progress: no live member; a paused listener of it; a paused
     * shard among {@code held} (the parents its waiting shards wait for and its left-out shards not drained).
     */
    private static List<String> blocked(Reshard machine, GroupShardSets.OnStream g, SortedSet<Integer> held) {
        String stream = machine.stream();
        boolean rolling = machine.state() == ReshardState.ROLLING_BACK;
        String rollback = rolling ? " (the rollback waits for it too)"
                : " or roll the change back (bin/shardline streams rollback " + stream + ")";
        List<String> out = new ArrayList<>();
        if (g.members() == 0) {
            out.add("group '" + g.group() + "' has no live member: nobody reads its shards, so the change cannot "
                    + "pass its barriers; start its listener" + (rolling ? rollback : ", or roll the change back"));
        }
        for (GroupShardSets.Paused p : g.paused()) {
            if (p.whole()) {
                out.add("group '" + g.group() + "' is paused (listener '" + p.listener() + "'): its members keep "
                        + "their shards but read nothing, so the change cannot pass its barriers; resume it (bin/"
                        + "shardline listeners resume " + p.listener() + ")" + rollback);
            } else if (held.contains(p.shard())) {
                out.add("shard " + stream + ":" + p.shard() + " of group '" + g.group() + "' is paused (listener '"
                        + p.listener() + "'): the change waits for the group to drain it to its cutover; resume it "
                        + "(PUT /listeners/" + p.listener() + "/shards/" + stream + "/" + p.shard() + "/resume)"
                        + rollback);
            }
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
