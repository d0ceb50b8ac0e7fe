package io.shardline.runtime.metrics;

/** The Dropwizard kind of a metric, and how it is exposed on {@code /metrics}. */
public enum MetricType {
    /** A Dropwizard meter: a Prometheus counter {@code <family>_total} (events so far). */
    METER,
    /** A Dropwizard counter (only ever incremented): a Prometheus counter {@code <family>_total}. */
    COUNTER,
    /** A Dropwizard gauge of a number: a Prometheus gauge. */
    GAUGE,
    /** A Dropwizard timer ({@link SummingTimer}): a Prometheus summary in seconds (quantiles 0.5 … 0.999, count, sum). */
    TIMER,
    /** A Dropwizard histogram: a Prometheus summary of the recorded values. */
    HISTOGRAM
}
