package io.shardline.runtime.metrics;

import com.codahale.metrics.MetricRegistry;
import io.prometheus.client.Collector.MetricFamilySamples;
import io.prometheus.client.exporter.common.TextFormat;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A Dropwizard {@link MetricRegistry} in the Prometheus text format: {@link RegistryCollector} turns it into
 * labelled families named after the {@link MetricCatalog} (e.g.
 * {@code shardline_listener_records_handled_total{listener="orders"}}), with the catalog's meaning as HELP,
 * and the Prometheus Java client's {@link TextFormat} writes them. Families are written sorted by name, so
 * the text is stable. Thread-safe.
 */
public final class DropwizardExporter {

    /** The content type of {@link #text()}. */
    public static final String CONTENT_TYPE = TextFormat.CONTENT_TYPE_004;

    private final RegistryCollector collector;

    /** An exporter of {@code registry}. */
    public DropwizardExporter(MetricRegistry registry) {
        this.collector = new RegistryCollector(Objects.requireNonNull(registry, "registry"));
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

    /** The registry as metric families, sorted by family name. */
    public List<MetricFamilySamples> collect() {
        return collector.collect();
    }
}
