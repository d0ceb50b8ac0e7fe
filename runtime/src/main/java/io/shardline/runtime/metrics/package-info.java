/**
 * Metrics: Dropwizard registries per worker, the documented catalogue of names ({@link io.shardline.runtime.metrics.MetricCatalog},
 * which generates docs/metrics.md), JMX, and the Prometheus text on {@code /metrics}
 * ({@link io.shardline.runtime.metrics.DropwizardExporter}).
 */
package io.shardline.runtime.metrics;
