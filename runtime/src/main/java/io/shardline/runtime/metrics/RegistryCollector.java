package io.shardline.runtime.metrics;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import io.prometheus.client.Collector.MetricFamilySamples;
import io.prometheus.client.Collector.MetricFamilySamples.Sample;
import io.prometheus.client.Collector.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A Dropwizard registry as Prometheus metric families, named by {@link ExportedName}: meters and counters
 * (Shardline's and handlers' counters only go up) become counters ({@code <family>_total}); numeric gauges
 * gauges (booleans 0 or 1; other values are skipped); timers summaries in seconds
 * ({@code <family>_seconds{quantile=...}}, {@code _count} and {@code _sum}, the sum kept by
 * {@link SummingTimer}); histograms summaries of their values ({@code _sum} from {@link SummingHistogram}).
 * Samples of one family from several Dropwizard names are merged; families are sorted by name. Stateless
 * apart from the registry; thread-safe.
 */
final class RegistryCollector {

    private static final double[] QUANTILES = {0.5, 0.75, 0.95, 0.98, 0.99, 0.999};
    private static final double NANOS_PER_SECOND = 1e9;

    private final MetricRegistry registry;

    RegistryCollector(MetricRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** Every family, sorted by name. */
    List<MetricFamilySamples> collect() {
        Map<String, Family> families = new TreeMap<>();
        for (Map.Entry<String, Metric> e : new TreeMap<>(registry.getMetrics()).entrySet()) {
            ExportedName name = ExportedName.of(e.getKey());
            Metric metric = e.getValue();
            if (metric instanceof Meter meter) {
                family(families, name, name.family(), Type.COUNTER)
                        .add(name.family() + "_total", name, meter.getCount());
            } else if (metric instanceof Counter counter) {
                family(families, name, name.family(), Type.COUNTER)
                        .add(name.family() + "_total", name, counter.getCount());
            } else if (metric instanceof Gauge<?> gauge) {
                Double value = numeric(gauge.getValue());
                if (value != null) {
                    family(families, name, name.family(), Type.GAUGE).add(name.family(), name, value);
                }
            } else if (metric instanceof Timer timer) {
                String base = name.family().endsWith("_seconds") ? name.family() : name.family() + "_seconds";
                double sum = timer instanceof SummingTimer summing ? summing.totalSeconds() : Double.NaN;
                summary(family(families, name, base, Type.SUMMARY), base, name, timer.getSnapshot(),
                        1 / NANOS_PER_SECOND, timer.getCount(), sum);
            } else if (metric instanceof Histogram histogram) {
                double sum = histogram instanceof SummingHistogram summing ? summing.total() : Double.NaN;
                summary(family(families, name, name.family(), Type.SUMMARY), name.family(), name,
                        histogram.getSnapshot(), 1, histogram.getCount(), sum);
            }
        }
        List<MetricFamilySamples> out = new ArrayList<>();
        families.values().forEach(f -> out.add(new MetricFamilySamples(f.name, f.type, f.help, f.samples)));
        return out;
    }

    private static void summary(Family family, String base, ExportedName name, Snapshot snapshot, double factor,
                                long count, double sum) {
        for (double q : QUANTILES) {
            List<String> labels = new ArrayList<>(name.labelNames());
            List<String> values = new ArrayList<>(name.labelValues());
            labels.add("quantile");
            values.add(Double.toString(q));
            family.samples.add(new Sample(base, labels, values, snapshot.getValue(q) * factor));
        }
        family.add(base + "_count", name, count);
        family.add(base + "_sum", name, sum);
    }

    /** The family {@code familyName}; a second Dropwizard kind under one name gets its own family. */
    private static Family family(Map<String, Family> families, ExportedName name, String familyName, Type type) {
        Family f = families.computeIfAbsent(familyName, n -> new Family(n, type, name.help()));
        if (f.type == type) {
            return f;
        }
        String other = familyName + "_" + type.name().toLowerCase(java.util.Locale.ROOT);
        return families.computeIfAbsent(other, n -> new Family(n, type, name.help()));
    }

    private static Double numeric(Object value) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof Boolean b) {
            return b ? 1.0 : 0.0;
        }
        return null;
    }

    /** One family being built. */
    private static final class Family {
        final String name;
        final Type type;
        final String help;
        final List<Sample> samples = new ArrayList<>();

        Family(String name, Type type, String help) {
            this.name = name;
            this.type = type;
            this.help = help;
        }

        void add(String sampleName, ExportedName name, double value) {
            samples.add(new Sample(sampleName, name.labelNames(), name.labelValues(), value));
        }
    }
}
