package io.shardline.runtime.metrics;

import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.jmx.JmxReporter;
import java.util.Objects;

/**
 * Publishes a registry's metrics as JMX MBeans in domain {@value #DOMAIN} (object names
 * {@code shardline:name=<metric name>,type=<kind>}) from {@link #start} until {@link #close}. Thread-safe.
 */
public final class JmxMetrics implements AutoCloseable {

    /** The JMX domain. */
    public static final String DOMAIN = "shardline";

    private final JmxReporter reporter;

    private JmxMetrics(JmxReporter reporter) {
        this.reporter = reporter;
    }

    /** Starts publishing {@code registry} on the platform MBean server. */
    public static JmxMetrics start(MetricRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        JmxReporter reporter = JmxReporter.forRegistry(registry).inDomain(DOMAIN).build();
        reporter.start();
        return new JmxMetrics(reporter);
    }

    /** Unregisters every MBean. */
    @Override
    public void close() {
        reporter.close();
    }
}
