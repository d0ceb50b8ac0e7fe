package io.shardline.runtime.metrics;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Sampling;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /metrics?format=json}: the registry as JSON, one object per Dropwizard name (sorted) with its
 * {@code type} and values (count, rates per second, timer quantiles in milliseconds). Stateless.
 */
public final class MetricsJson {

    private static final double NANOS_PER_MS = TimeUnit.MILLISECONDS.toNanos(1);

    private MetricsJson() {
    }

    /** The registry as a JSON object. */
    public static JsonObject of(MetricRegistry registry) {
        JsonObject out = new JsonObject();
        Map<String, Metric> sorted = new TreeMap<>(registry.getMetrics());
        sorted.forEach((name, metric) -> {
            JsonObject json = describe(metric);
            if (json != null) {
                out.put(name, json);
            }
        });
        return out;
    }

    private static JsonObject describe(Metric metric) {
        if (metric instanceof Timer timer) {
            return rates(new JsonObject().put("type", "timer"), timer)
                    .put("duration_units", "milliseconds")
                    .mergeIn(quantiles(timer, 1 / NANOS_PER_MS));
        } else if (metric instanceof Meter meter) {
            return rates(new JsonObject().put("type", "meter"), meter);
        } else if (metric instanceof Histogram histogram) {
            return new JsonObject().put("type", "histogram").put("count", histogram.getCount())
                    .mergeIn(quantiles(histogram, 1));
        } else if (metric instanceof Counter counter) {
            return new JsonObject().put("type", "counter").put("count", counter.getCount());
        } else if (metric instanceof Gauge<?> gauge) {
            Object value = gauge.getValue();
            return value instanceof Number || value instanceof String || value instanceof Boolean
                    ? new JsonObject().put("type", "gauge").put("value", value) : null;
        }
        return null;
    }

    private static JsonObject rates(JsonObject json, com.codahale.metrics.Metered metered) {
        return json.put("count", metered.getCount())
                .put("mean_rate", metered.getMeanRate())
                .put("m1_rate", metered.getOneMinuteRate())
                .put("m5_rate", metered.getFiveMinuteRate())
                .put("m15_rate", metered.getFifteenMinuteRate())
                .put("rate_units", "events/second");
    }

    private static JsonObject quantiles(Sampling sampling, double factor) {
        Snapshot s = sampling.getSnapshot();
        return new JsonObject()
                .put("min", s.getMin() * factor)
                .put("max", s.getMax() * factor)
                .put("mean", s.getMean() * factor)
                .put("p50", s.getMedian() * factor)
                .put("p75", s.get75thPercentile() * factor)
                .put("p95", s.get95thPercentile() * factor)
                .put("p99", s.get99thPercentile() * factor)
                .put("p999", s.get999thPercentile() * factor);
    }
}
