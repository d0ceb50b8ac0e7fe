package io.shardline.runtime.metrics;

import com.codahale.metrics.MetricRegistry;
import io.prometheus.client.Collector;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How one Dropwizard name is exported on {@code /metrics}: a name of the {@link MetricCatalog} becomes its
 * template's family with the template's variable parts as labels and the template's meaning as HELP; a
 * handler's own metric ({@code shardline.listener.<listener>.handler.<name>}, see
 * {@link io.shardline.api.handler.HandlerMetrics}) becomes {@code shardline_handler_<name>} with a
 * {@code listener} label, so listener names never end up in family names; anything else keeps its sanitised
 * name. Immutable.
 *
 * @param family the family name before any unit or type suffix
 * @param help the HELP text
 * @param labelNames the label names
 * @param labelValues the label values, in {@code labelNames} order
 */
public record ExportedName(String family, String help, List<String> labelNames, List<String> labelValues) {

    /** A handler metric; the listener is the shortest prefix ending before {@code .handler.}. */
    private static final Pattern HANDLER = Pattern.compile("shardline\\.listener\\.(.+?)\\.handler\\.(.+)");

    public ExportedName {
        labelNames = List.copyOf(labelNames);
        labelValues = List.copyOf(labelValues);
    }

    /** The exported name of {@code dropwizardName}. */
    static ExportedName of(String dropwizardName) {
        Optional<MetricCatalog.Match> match = MetricCatalog.match(dropwizardName);
        if (match.isPresent()) {
            MetricTemplate t = match.get().template();
            return new ExportedName(t.family(), t.help(), t.labels(), match.get().values());
        }
        Matcher handler = HANDLER.matcher(dropwizardName);
        if (handler.matches()) {
            return new ExportedName("shardline_handler_" + sanitize(handler.group(2)), "Metric '" + handler.group(2)
                    + "' declared by the listener's handler (HandlerMetrics).", List.of("listener"),
                    List.of(handler.group(1)));
        }
        return new ExportedName(sanitize(dropwizardName), "Dropwizard metric " + dropwizardName + ".", List.of(),
                List.of());
    }

    /** The value of label {@code label}, empty when this name has no such label. */
    Optional<String> label(String label) {
        int i = labelNames.indexOf(label);
        return i < 0 ? Optional.empty() : Optional.of(labelValues.get(i));
    }

    /**
     * Removes from {@code registry} every metric whose exported label {@code label} has a value outside
     * {@code keep} (the series of a deleted listener or group).
     */
    public static void removeUnless(MetricRegistry registry, String label, Set<String> keep) {
        registry.removeMatching((name, metric) -> of(name).label(label).map(v -> !keep.contains(v)).orElse(false));
    }

    /** {@code name} as a Prometheus name: dots and dashes become underscores. */
    static String sanitize(String name) {
        return Collector.sanitizeMetricName(name.replace('.', '_').replace('-', '_'));
    }
}
