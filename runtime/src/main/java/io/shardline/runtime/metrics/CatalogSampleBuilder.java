package io.shardline.runtime.metrics;

import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.prometheus.client.Collector;
import io.prometheus.client.Collector.MetricFamilySamples.Sample;
import io.prometheus.client.dropwizard.samplebuilder.DefaultSampleBuilder;
import io.prometheus.client.dropwizard.samplebuilder.SampleBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The Dropwizard bridge's sample naming for Shardline: a name that matches a {@link MetricCatalog} template
 * becomes the template's family with the template's variable parts as labels (before any label the bridge
 * adds, such as {@code quantile}); a timer's family gets the {@code _seconds} unit suffix (the bridge already
 * converts timer values to seconds). Names outside the catalog fall back to the bridge's
 * {@link DefaultSampleBuilder}. Stateless apart from the registry it looks timers up in; thread-safe.
 */
final class CatalogSampleBuilder implements SampleBuilder {

    private final MetricRegistry registry;
    private final SampleBuilder fallback = new DefaultSampleBuilder();

    CatalogSampleBuilder(MetricRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public Sample createSample(String dropwizardName, String nameSuffix, List<String> additionalLabelNames,
                               List<String> additionalLabelValues, double value) {
        String suffix = nameSuffix == null ? "" : nameSuffix;
        Optional<MetricCatalog.Match> match = MetricCatalog.match(dropwizardName);
        boolean timer = registry.getMetrics().get(dropwizardName) instanceof Timer;
        if (match.isEmpty()) {
            if (!timer) {
                return fallback.createSample(dropwizardName, suffix, additionalLabelNames, additionalLabelValues, value);
            }
            String name = Collector.sanitizeMetricName(dropwizardName) + "_seconds" + suffix;
            return new Sample(name, additionalLabelNames, additionalLabelValues, value);
        }
        MetricCatalog.Match m = match.get();
        List<String> names = new ArrayList<>(m.template().labels());
        List<String> values = new ArrayList<>(m.values());
        names.addAll(additionalLabelNames);
        values.addAll(additionalLabelValues);
        String family = m.template().family() + (timer ? "_seconds" : "");
        return new Sample(family + suffix, names, values, value);
    }
}
