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
                .append("* on **`GET /metrics`** in the Prometheus text format (0.0.4), written by the Prometheus Java client's Dropwizard\n"
                        + "  bridge (`simpleclient_dropwizard`, `DropwizardExports`), or as JSON with `?format=json`.\n\n")
                .append("On `/metrics` the variable parts of a name (in angle brackets below) become labels and the fixed\n")
                .append("parts the family name. Meters are counters (`<family>_total`), Dropwizard counters and gauges are\n")
                .append("gauges, timers are summaries in seconds (`<family>_seconds{quantile=...}` and `_count`),\n")
                .append("histograms summaries of their values. Metrics a handler declares through `HandlerMetrics`\n")
                .append("(`shardline.listener.<listener>.handler.<name>`) are exported under their sanitised full name.\n\n")
                .append("Lag, pending and ownership gauges are sampled from Redis (one `HGETALL` and one `XINFO GROUPS`\n")
                .append("per shard) by the leader only, so one worker exports the cluster-wide series.\n\n")
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
            case METER -> t.family() + "_total";
            case TIMER -> t.family() + "_seconds";
            default -> t.family();
        };
    }
}
