package io.shardline.runtime.metrics;

import com.codahale.metrics.MetricRegistry;
import java.util.List;

/**
 * Resharding's metrics, exported by the leader (which runs the changes): per stream its routing epoch, its state
 * and, while a change runs, how many (group, shard) pairs wait at a cutover for their parents (docs/operations.md,
 * "Changing the shard count"). A worker that stops leading removes its gauges. Thread-safe.
 */
public final class ReshardMetrics {

    /** The routing epoch. */
    public static final MetricTemplate ROUTING_EPOCH = new MetricTemplate("shardline.stream.{<stream>}.routing-epoch",
            MetricType.GAUGE, "The stream's routing epoch: it rises with every change of its shard count (and "
                    + "every rollback).");
    /** The state. */
    public static final MetricTemplate STATE = new MetricTemplate("shardline.stream.{<stream>}.reshard-state",
            MetricType.GAUGE, "The stream's topology state: 0 STABLE, 1 RESHARDING, 2 ROLLING_BACK.");
    /** Shards waiting at a cutover. */
    public static final MetricTemplate WAITING = new MetricTemplate(
            "shardline.stream.{<stream>}.reshard-waiting-shards", MetricType.GAUGE,
            "While a change of the stream's shard count runs: the (group, shard) pairs whose barrier is not released "
                    + "because a parent shard is not drained to its cutover by that group; 0 when stable.");

    /** Every resharding metric. */
    public static final List<MetricTemplate> TEMPLATES = List.of(ROUTING_EPOCH, STATE, WAITING);

    private final LeaderGauges gauges;

    /** Metrics registered in {@code registry} on first use. */
    public ReshardMetrics(MetricRegistry registry) {
        this.gauges = new LeaderGauges(registry, "shardline.stream.");
    }

    /**
     * Records {@code stream}'s state ({@code 0} stable, {@code 1} resharding, {@code 2} rolling back) and epoch.
     */
    public void stream(String stream, int state, long routingEpoch) {
        gauges.set(ROUTING_EPOCH.name(stream), routingEpoch);
        gauges.set(STATE.name(stream), state);
        if (state == 0) {
            gauges.set(WAITING.name(stream), 0);
        }
    }

    /** Records how many (group, shard) pairs of {@code stream} wait at a cutover. */
    public void waiting(String stream, long pairs) {
        gauges.set(WAITING.name(stream), pairs);
    }

    /** Removes every resharding metric (this worker no longer leads). */
    public void clear() {
        gauges.clear();
    }
}
