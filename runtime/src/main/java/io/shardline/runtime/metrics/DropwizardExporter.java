package io.shardline.runtime.metrics;

import com.codahale.metrics.MetricRegistry;
import io.prometheus.client.Collector.MetricFamilySamples;
import io.prometheus.client.dropwizard.DropwizardExports;
import io.prometheus.client.exporter.common.TextFormat;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A Dropwizard {@link MetricRegistry} in the Prometheus text format, through the Prometheus Java client's
 * Dropwizard bridge ({@link DropwizardExports}) and its {@link TextFormat} writer. The bridge's mapping
 * applies: meters become counters ({@code _total}), counters and numeric gauges become gauges, timers become
 * summaries in seconds, histograms summaries of their values; non-numeric gauges are skipped. The
 * {@link CatalogSampleBuilder} turns names documented in the {@link MetricCatalog} into labelled families
 * (e.g. {@code shardline_listener_records_handled_total{listener="orders"}}) and adds {@code _seconds} to
 * timers; other names (handler-defined metrics) keep the bridge's default, their sanitised name.
 * Families are written sorted by name, so the text is stable. Thread-safe.
 */
public final class DropwizardExporter {

    /** The content type of {@link #text()}. */
    public static final String CONTENT_TYPE = TextFormat.CONTENT_TYPE_004;

    private final DropwizardExports exports;

    /** An exporter of {@code registry}. */
    public DropwizardExporter(MetricRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        this.exports = new DropwizardExports(registry, new CatalogSampleBuilder(registry));
    }

    /** The registry in the Prometheus text format (version 0.0.4). */
    public String text() {
        StringWriter out = new StringWriter();
        try {
            TextFormat.write004(out, Collections.enumeration(collect()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** The registry as the bridge's metric families, sorted by family name. */
    public List<MetricFamilySamples> collect() {
        List<MetricFamilySamples> families = new ArrayList<>(exports.collect());
        families.sort(Comparator.comparing(f -> f.name));
        return families;
    }
}
