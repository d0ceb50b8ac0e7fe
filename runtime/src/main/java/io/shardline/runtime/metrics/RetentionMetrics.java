package io.shardline.runtime.metrics;

import com.codahale.metrics.MetricRegistry;
import java.util.List;

/**
 * Retention's metrics, exported by the leader (which trims): entries trimmed per stream, and per stream the
 * shards, entries and seconds of entry time by which consumer groups held retention back at the last pass over
 * the stream (docs/operations.md, "Retention"). A worker that stops leading removes its gauges. Thread-safe.
 */
public final class RetentionMetrics {

    /** Entries trimmed. */
    public static final MetricTemplate TRIMMED = new MetricTemplate("shardline.retention.{<stream>}.trimmed",
            MetricType.COUNTER, "Entries the leader trimmed from the stream's shards by its retention.");
    /** Shards held back. */
    public static final MetricTemplate HELD_BACK_SHARDS = new MetricTemplate(
            "shardline.retention.{<stream>}.held-back-shards", MetricType.GAUGE,
            "Shards of the stream that retention could not trim to their bound at its last pass, because a consumer "
                    + "group has not been delivered or has not acknowledged entries before it.");
    /** Entries held back. */
    public static final MetricTemplate HELD_BACK_ENTRIES = new MetricTemplate(
            "shardline.retention.{<stream>}.held-back-entries", MetricType.GAUGE,
            "Entries retention would have trimmed at its last pass over the stream and kept because a group still "
                    + "needs them (counted up to retention.trim.max.entries per shard).");
    /** How far retention is held back. */
    public static final MetricTemplate HELD_BACK_SECONDS = new MetricTemplate(
            "shardline.retention.{<stream>}.held-back-seconds", MetricType.GAUGE,
            "The largest gap, in seconds of entry time, between a shard's retention bound and the oldest entry a "
                    + "group still needs on it, at the last pass; 0 when no group holds retention back.");

    /** Every retention metric. */
    public static final List<MetricTemplate> TEMPLATES = List.of(TRIMMED, HELD_BACK_SHARDS, HELD_BACK_ENTRIES,
            HELD_BACK_SECONDS);

    private final LeaderGauges gauges;

    /** Metrics registered in {@code registry} on first use. */
    public RetentionMetrics(MetricRegistry registry) {
        this.gauges = new LeaderGauges(registry, "shardline.retention.");
    }

    /** Counts {@code count} entries trimmed from {@code stream}. */
    public void trimmed(String stream, long count) {
        if (count > 0) {
            gauges.counter(TRIMMED.name(stream)).inc(count);
        }
    }

    /** Records the last pass over {@code stream}. */
    public void held(String stream, long shards, long entries, long millis) {
        gauges.set(HELD_BACK_SHARDS.name(stream), shards);
        gauges.set(HELD_BACK_ENTRIES.name(stream), entries);
        gauges.set(HELD_BACK_SECONDS.name(stream), millis / 1_000);
    }

    /** Removes every retention metric (this worker no longer leads). */
    public void clear() {
        gauges.clear();
    }
}
