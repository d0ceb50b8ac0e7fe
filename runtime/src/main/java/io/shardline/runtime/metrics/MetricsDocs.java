package io.shardline.runtime.metrics;

import java.util.Locale;

/**
 * Renders {@code docs/metrics.md} from the {@link MetricCatalog} (a test fails when the committed file is
 * stale and tells how to regenerate it). Stateless.
 */
public final class MetricsDocs {

    private MetricsDocs() {
    }

    /** The Markdown text of docs/metrics.md. */
    public static String render() {
        StringBuilder out = new StringBuilder();
        out.append("# Shardline metrics\n\n")
                .append("<!-- Generated from io.shardline.runtime.metrics.MetricCatalog by MetricsDocsTest; do not edit. -->\n\n")
                .append("Every worker keeps its metrics in one Dropwizard `MetricRegistry` (injected, never a static shared\n")
                .append("registry). They are published\n\n")
                .append("* on **JMX**, domain `shardline` (`shardline:name=<dropwizard name>,type=<kind>`), and\n")
                .append("* on **`GET /metrics`** in the Prometheus text format (0.0.4, written by the Prometheus Java client's\n"
                        + "  `TextFormat`), or as JSON with `?format=json`.\n\n")
                .append("On `/metrics` the variable parts of a name (in angle brackets below) become labels and the fixed\n")
                .append("parts the family name, so listener, group, member, stream and shard names are always labels. The\n")
                .append("HELP line of each family is its meaning below. Meters are counters (`<family>_total`); gauges are\n")
                .append("gauges; timers are summaries in seconds (`<family>_seconds{quantile=...}`, `_count` and `_sum`), so\n")
                .append("`rate(x_seconds_sum[5m]) / rate(x_seconds_count[5m])` is the mean. Metrics a handler declares through\n")
                .append("`HandlerMetrics` (`shardline.listener.<listener>.handler.<name>`) are exported as\n")
                .append("`shardline_handler_<name>` with a `listener` label: counters as `_total`, timers and histograms as\n")
                .append("summaries with `_sum`.\n\n")
                .append("Lag, pending, oldest-pending, cutover-wait and ownership gauges are sampled from Redis every 5 s (a read-only\n")
                .append("script per 64 shards, per shard on a Redis Cluster, that reads each shard's owner and routing hash, `XINFO GROUPS` and,\n")
                .append("with entries pending, `XPENDING`). Each worker exports the shards its own members own, and\n")
                .append("the leader also the unowned ones, so every shard has one series in the cluster and `sum by (listener)`\n")
                .append("over all workers counts each shard once; `shardline_listener_shards_owned` is the number owned by the\n")
                .append("exporting worker. The series of a deleted listener (and, on the leader, of a group no listener uses)\n")
                .append("are removed at the next sample; a member's series go when it leaves.\n\n")
                .append("A Grafana dashboard over these families ships in the distribution as\n")
                .append("`grafana/shardline-dashboard.json` (import it and pick the Prometheus data source).\n\n")
                .append("| Dropwizard name | type | Prometheus family | labels | meaning |\n")
                .append("| --- | --- | --- | --- | --- |\n");
        for (MetricTemplate t : MetricCatalog.ALL) {
            out.append("| `").append(t.template()).append("` | ").append(t.type().name().toLowerCase(Locale.ROOT))
                    .append(" | `").append(exposed(t)).append("` | ")
                    .append(t.labels().isEmpty() ? "" : "`" + String.join("`, `", t.labels()) + "`")
                    .append(" | ").append(t.help()).append(" |\n");
        }
        return out.toString();
    }

    /** The name the family has in the text format. */
    static String exposed(MetricTemplate t) {
        return switch (t.type()) {
            case METER, COUNTER -> t.family() + "_total";
            case TIMER -> t.family() + "_seconds";
            default -> t.family();
        };
    }
}
