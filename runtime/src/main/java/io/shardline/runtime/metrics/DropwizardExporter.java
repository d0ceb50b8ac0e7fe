package io.shardline.runtime.metrics;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Turns a Dropwizard {@link MetricRegistry} into the Prometheus Java client's data model (the mapping of
 * the client's Dropwizard bridge, which is not available in this build's repository) and writes it with
 * the client's {@link PrometheusTextFormatWriter}: meters become counters ({@code _total}), counters and
 * numeric gauges become gauges, timers become summaries in seconds, histograms summaries of their values.
 * Names documented in the {@link MetricCatalog} become labelled families (e.g.
 * {@code shardline_listener_records_handled_total{listener="orders"}}); other names (handler-defined
 * metrics) are exported unlabelled under their sanitised name. Non-numeric gauges are skipped; summaries
 * have no {@code _sum} (Dropwizard keeps none), as in the client's bridge.
 * Thread-safe.
 */
public final class DropwizardExporter {

    /** The content type of {@link #text()}. */
    public static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    private static final double[] QUANTILES = {0.5, 0.75, 0.95, 0.98, 0.99, 0.999};
    private static final double NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

    private final MetricRegistry registry;
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    /** An exporter of {@code registry}. */
    public DropwizardExporter(MetricRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** The registry in the Prometheus text format (version 0.0.4). */
    public String text() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            writer.write(out, collect());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The registry as Prometheus snapshots, one per family, sorted by family name. */
    public MetricSnapshots collect() {
        Map<String, Family> families = new TreeMap<>();
        for (Map.Entry<String, Metric> e : registry.getMetrics().entrySet()) {
            MetricType type = typeOf(e.getValue());
            if (type == null) {
                continue;
            }
            Family family = familyOf(e.getKey(), type);
            Family existing = families.computeIfAbsent(family.name, n -> family);
            if (existing.type != type) {
                String renamed = family.name + "_" + type.name().toLowerCase(java.util.Locale.ROOT);
                existing = families.computeIfAbsent(renamed, n -> new Family(renamed, type, family.help));
            }
            existing.add(labels(e.getKey(), family), e.getValue());
        }
        List<MetricSnapshot> out = new ArrayList<>();
        for (Family family : families.values()) {
            MetricSnapshot snapshot = family.build();
            if (snapshot != null) {
                out.add(snapshot);
            }
        }
        return new MetricSnapshots(out);
    }

    private static Family familyOf(String name, MetricType type) {
        return MetricCatalog.match(name)
                .filter(m -> m.template().type() == type)
                .map(m -> new Family(m.template().family(), type, m.template().help()))
                .orElseGet(() -> new Family(PrometheusNaming.sanitizeMetricName(name.replaceAll("[^A-Za-z0-9_:]", "_")),
                        type, "Dropwizard " + type.name().toLowerCase(java.util.Locale.ROOT) + " " + name));
    }

    private static Labels labels(String name, Family family) {
        return MetricCatalog.match(name)
                .filter(m -> m.template().family().equals(family.name))
                .map(m -> {
                    List<String> names = m.template().labels();
                    String[] pairs = new String[names.size() * 2];
                    for (int i = 0; i < names.size(); i++) {
                        pairs[2 * i] = names.get(i);
                        pairs[2 * i + 1] = m.values().get(i);
                    }
                    return Labels.of(pairs);
                })
                .orElse(Labels.EMPTY);
    }

    private static MetricType typeOf(Metric metric) {
        if (metric instanceof Timer) {
            return MetricType.TIMER;
        } else if (metric instanceof Meter) {
            return MetricType.METER;
        } else if (metric instanceof Histogram) {
            return MetricType.HISTOGRAM;
        } else if (metric instanceof Counter) {
            return MetricType.COUNTER;
        } else if (metric instanceof Gauge<?> gauge) {
            return gauge.getValue() instanceof Number ? MetricType.GAUGE : null;
        }
        return null;
    }

    /** The data points of one family, accumulated before building its snapshot. */
    private static final class Family {
        private final String name;
        private final MetricType type;
        private final String help;
        private final List<CounterSnapshot.CounterDataPointSnapshot> counters = new ArrayList<>();
        private final List<GaugeSnapshot.GaugeDataPointSnapshot> gauges = new ArrayList<>();
        private final List<SummarySnapshot.SummaryDataPointSnapshot> summaries = new ArrayList<>();

        Family(String name, MetricType type, String help) {
            this.name = name;
            this.type = type;
            this.help = help;
        }

        void add(Labels labels, Metric metric) {
            switch (type) {
                case METER -> counters.add(CounterSnapshot.CounterDataPointSnapshot.builder()
                        .labels(labels).value(((Meter) metric).getCount()).build());
                case COUNTER -> gauges.add(gauge(labels, ((Counter) metric).getCount()));
                case GAUGE -> {
                    Object value = ((Gauge<?>) metric).getValue();
                    if (value instanceof Number n) {
                        gauges.add(gauge(labels, n.doubleValue()));
                    }
                }
                case TIMER -> summaries.add(summary(labels, ((Timer) metric).getCount(),
                        ((Timer) metric).getSnapshot(), 1 / NANOS_PER_SECOND));
                case HISTOGRAM -> summaries.add(summary(labels, ((Histogram) metric).getCount(),
                        ((Histogram) metric).getSnapshot(), 1));
                default -> throw new IllegalStateException("unexpected type " + type);
            }
        }

        MetricSnapshot build() {
            return switch (type) {
                case METER -> counters.isEmpty() ? null : new CounterSnapshot(new MetricMetadata(name, help), counters);
                case COUNTER, GAUGE -> gauges.isEmpty() ? null : new GaugeSnapshot(new MetricMetadata(name, help), gauges);
                case TIMER -> summaries.isEmpty() ? null
                        : new SummarySnapshot(new MetricMetadata(name + "_seconds", help), summaries);
                case HISTOGRAM -> summaries.isEmpty() ? null : new SummarySnapshot(new MetricMetadata(name, help), summaries);
            };
        }

        private static GaugeSnapshot.GaugeDataPointSnapshot gauge(Labels labels, double value) {
            return GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
        }

        private static SummarySnapshot.SummaryDataPointSnapshot summary(Labels labels, long count, Snapshot snapshot,
                                                                         double factor) {
            List<Quantile> quantiles = new ArrayList<>();
            for (double q : QUANTILES) {
                quantiles.add(new Quantile(q, snapshot.getValue(q) * factor));
            }
            return SummarySnapshot.SummaryDataPointSnapshot.builder().labels(labels).count(count)
                    .quantiles(Quantiles.of(quantiles)).build();
        }
    }
}
