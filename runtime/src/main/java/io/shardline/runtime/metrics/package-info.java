/**
 * Metrics: Dropwizard registries per worker, each part's metrics (the coordinator host's port
 * {@link io.shardline.runtime.metrics.CoordinatorHostMetrics} and its Dropwizard implementation, members, shards,
 * retention, Redis), the documented catalogue of names ({@link io.shardline.runtime.metrics.MetricCatalog},
 * which generates docs/metrics.md), JMX, and the Prometheus text ({@link io.shardline.runtime.metrics.DropwizardExporter})
 * that the REST edge serves on {@code /metrics}. Low in the package order: the parts it measures depend on it,
 * never the other way round.
 */
package io.shardline.runtime.metrics;
