package io.shardline.runtime.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every documented Shardline metric, collected from the one names class per feature
 * ({@link ConsumptionMetricNames}, {@link ShardMetrics}, {@link MemberMetrics},
 * {@link DropwizardCoordinatorMetrics}). {@code docs/metrics.md} lists exactly these (a test checks it);
 * {@link DropwizardExporter} uses them to turn names into labelled families. Immutable.
 */
public final class MetricCatalog {

    /** Every template, consumption first. */
    public static final List<MetricTemplate> ALL = all();

    private MetricCatalog() {
    }

    /** The template {@code name} is an instance of, and its label values. */
    public static Optional<Match> match(String name) {
        for (MetricTemplate template : ALL) {
            Optional<List<String>> values = template.match(name);
            if (values.isPresent()) {
                return Optional.of(new Match(template, values.get()));
            }
        }
        return Optional.empty();
    }

    /**
     * A metric name resolved to its template.
     *
     * @param template the template
     * @param values the label values, in {@link MetricTemplate#labels()} order
     */
    public record Match(MetricTemplate template, List<String> values) {

        /** Copies. */
        public Match {
            values = List.copyOf(values);
        }
    }

    private static List<MetricTemplate> all() {
        List<MetricTemplate> out = new ArrayList<>();
        out.addAll(ConsumptionMetricNames.TEMPLATES);
        out.addAll(ShardMetrics.TEMPLATES);
        out.addAll(MemberMetrics.TEMPLATES);
        out.addAll(DropwizardCoordinatorMetrics.TEMPLATES);
        out.addAll(RedisMetrics.TEMPLATES);
        out.addAll(RetentionMetrics.TEMPLATES);
        out.addAll(ReshardMetrics.TEMPLATES);
        return List.copyOf(out);
    }
}
